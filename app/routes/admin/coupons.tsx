import { randomUUID } from 'node:crypto';

import { CouponFormDialog } from '~/components/admin/coupon-form-dialog';
import { CouponList } from '~/components/admin/coupon-list';
import { ToastFallback } from '~/components/admin/toaster';
import { Pagination } from '~/components/ui/pagination';
import { couponsScreen, saveCoupon } from '~/flows/save-coupon.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { parsePage, withPage } from '~/lib/pagination';
import { countOf } from '~/lib/plural';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { COUPON_FORM_REPEATABLE } from '~/modules/coupons/index.admin';
import {
  couponActionSchema,
  deleteCoupon,
  setCouponActive,
  type CouponChange,
} from '~/modules/coupons/index.admin.server';

import type { Route } from './+types/coupons';

const PER_PAGE = 20;

function pageParam(request: Request): number {
  return parsePage(new URL(request.url).searchParams);
}

function listPath(page: number): string {
  const search = withPage(new URLSearchParams(), page).toString();
  return search ? `/admin/coupons?${search}` : '/admin/coupons';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { timezone: timeZone } = await context.settings.get();
  const screen = await couponsScreen(context.db, {
    page: pageParam(request),
    perPage: PER_PAGE,
    timeZone,
    now: new Date(),
  });
  return {
    ...screen,
    // The add form's key: sent twice, it still makes one coupon (see createCoupon, via saveCoupon).
    newCouponId: randomUUID(),
  };
}

const DONE = {
  create: 'Cupom criado com sucesso!',
  update: 'Cupom atualizado com sucesso!',
  activate: 'Cupom ativado: ele já vale na loja.',
  deactivate: 'Cupom desativado: ele não vale mais na loja.',
  delete: 'Cupom excluído com sucesso!',
} as const;

function failureText(intent: unknown, error: string): string {
  switch (intent) {
    case 'delete':
      return `Erro ao excluir cupom: ${error}`;
    case 'activate':
    case 'deactivate':
      return `Erro ao alterar cupom: ${error}`;
    default:
      return `Erro ao salvar cupom: ${error}`;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, couponActionSchema, {
    repeatable: COUPON_FORM_REPEATABLE,
  });
  if (!parsed.ok) {
    return refuseForm(
      failureText(parsed.values.intent, parsed.error),
      { fieldErrors: parsed.fieldErrors, values: parsed.values },
      400,
    );
  }
  const form = parsed.data;
  let result: CouponChange;
  switch (form.intent) {
    case 'create':
    case 'update': {
      const { timezone: timeZone } = await context.settings.get();
      result = await saveCoupon(context.db, form, { timeZone });
      break;
    }
    case 'activate':
    case 'deactivate':
      result = await setCouponActive(context.db, {
        id: form.id,
        active: form.intent === 'activate',
      });
      break;
    case 'delete':
      result = await deleteCoupon(context.db, form.id);
      break;
  }
  if (!result.ok) {
    return refuseForm(
      failureText(form.intent, result.error),
      { fieldErrors: result.field ? { [result.field]: result.error } : {}, values: {} },
      result.status,
    );
  }
  // A deleted coupon's row, with the form that sent this, is gone after the reload: the toast
  // rides the redirect back to the same page (and shows without JavaScript too).
  if (form.intent === 'delete') {
    return redirectWithToast(listPath(pageParam(request)), toast('success', DONE.delete));
  }
  return successWithToast(request, DONE[form.intent]);
}

export function meta() {
  return [{ title: 'Cupons · Painel' }];
}

export default function AdminCoupons({ loaderData, actionData }: Route.ComponentProps) {
  const { coupons, total, page, pageCount, products, categories, newCouponId } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Cupons</h1>
          <p className="mt-1 text-sm text-slate-600">
            {countOf(total, 'cupom', 'cupons')}. Um cupom já usado em pedidos não pode ser excluído,
            só desativado.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href="/admin/coupons/export.csv" download className="admin-button-secondary">
            Exportar CSV
          </a>
          <CouponFormDialog
            mode="create"
            id={newCouponId}
            products={products}
            categories={categories}
          />
        </div>
      </div>
      <ToastFallback toast={actionData && 'toast' in actionData ? actionData.toast : undefined} />
      {coupons.length === 0 ? (
        <p className="admin-card text-slate-700">Nenhum cupom cadastrado.</p>
      ) : (
        <CouponList coupons={coupons} products={products} categories={categories} />
      )}
      <Pagination
        look="admin"
        label="Páginas de cupons"
        page={page}
        pageCount={pageCount}
        href={listPath}
      />
    </div>
  );
}
