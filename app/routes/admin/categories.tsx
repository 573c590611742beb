import { randomUUID } from 'node:crypto';

import { CategoryCard } from '~/components/admin/category-card';
import { CategoryFormDialog } from '~/components/admin/category-form-dialog';
import { ToastFallback } from '~/components/admin/toaster';
import { deleteCategoryEverywhere } from '~/flows/delete-catalog.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import {
  categoryActionSchema,
  createCategory,
  listAdminCategories,
  setCategoryFeatured,
  updateCategory,
  type CategoryChange,
} from '~/modules/catalog/index.admin.server';

import type { Route } from './+types/categories';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const categories = await listAdminCategories(context.db);
  return {
    categories: categories.map(({ createdAt: _createdAt, ...category }) => category),
    // The add form's key: sent twice, it still makes one category (see createCategory).
    newCategoryId: randomUUID(),
  };
}

const SUCCESS = {
  create: 'Categoria criada com sucesso!',
  update: 'Categoria atualizada com sucesso!',
  feature: 'Categoria atualizada com sucesso!',
  delete: 'Categoria excluída com sucesso!',
} as const;

function failureText(intent: unknown, error: string): string {
  return intent === 'delete'
    ? `Erro ao excluir categoria: ${error}`
    : `Erro ao salvar categoria: ${error}`;
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, categoryActionSchema);
  if (!parsed.ok) {
    return refuseForm(
      failureText(parsed.values.intent, parsed.error),
      { fieldErrors: parsed.fieldErrors, values: parsed.values },
      400,
    );
  }
  const form = parsed.data;
  let result: CategoryChange;
  switch (form.intent) {
    case 'create':
    case 'update': {
      const values = { id: form.id, name: form.name, description: form.description };
      result =
        form.intent === 'create'
          ? await createCategory(context.db, values)
          : await updateCategory(context.db, values);
      break;
    }
    case 'feature':
      result = await setCategoryFeatured(context.db, form);
      break;
    case 'delete':
      result = await deleteCategoryEverywhere(context.db, {
        id: form.id,
        products:
          form.products === 'move'
            ? { action: 'move', targetId: form.targetId! }
            : form.products === 'detach'
              ? { action: 'detach' }
              : undefined,
      });
      break;
  }
  if (!result.ok) {
    return refuseForm(
      failureText(form.intent, result.error),
      { fieldErrors: result.field ? { [result.field]: result.error } : {}, values: {} },
      result.status,
    );
  }
  // A deleted category's card, with the form that sent this, is gone after the reload: the
  // toast rides the redirect (and shows without JavaScript too).
  if (form.intent === 'delete') {
    return redirectWithToast('/admin/categories', toast('success', SUCCESS.delete));
  }
  return successWithToast(request, SUCCESS[form.intent]);
}

export function meta() {
  return [{ title: 'Categorias · Painel' }];
}

export default function AdminCategories({ loaderData, actionData }: Route.ComponentProps) {
  const { categories, newCategoryId } = loaderData;
  const choices = categories.map(({ id, name }) => ({ id, name }));
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Categorias</h1>
          <p className="mt-1 text-sm text-slate-600">
            Selecionada: aparece nos filtros da página inicial. Sem nenhuma selecionada, a página
            inicial mostra todas as categorias.
          </p>
        </div>
        <CategoryFormDialog mode="create" id={newCategoryId} />
      </div>
      <ToastFallback toast={actionData && 'toast' in actionData ? actionData.toast : undefined} />
      {categories.length === 0 ? (
        <p className="admin-card text-slate-700">Nenhuma categoria cadastrada.</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {categories.map((category) => (
            <li key={category.id} className="flex">
              <CategoryCard
                category={category}
                otherCategories={choices.filter((choice) => choice.id !== category.id)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
