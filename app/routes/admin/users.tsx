import { UserCreateForm, UserPasswordForm } from '~/components/admin/user-forms';
import { UserList } from '~/components/admin/user-list';
import { ToastFallback } from '~/components/admin/toaster';
import { formatDate } from '~/lib/date-format';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import {
  ADMIN_MESSAGES,
  changePassword,
  createAdmin,
  currentSessionId,
  listAdmins,
  requireAdmin,
  setAdminActive,
  userActionSchema,
} from '~/modules/auth/index.server';
import { ownEntry } from '~/lib/lookup';

import type { Route } from './+types/users';

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const [settings, admins] = await Promise.all([context.settings.get(), listAdmins(context.db)]);
  return {
    meId: admin.id,
    admins: admins.map((row) => ({
      id: row.id,
      email: row.email,
      fullName: row.fullName,
      isActive: row.isActive,
      createdAt: row.createdAt.toISOString(),
      date: formatDate(row.createdAt, settings.timezone),
    })),
  };
}

const FAILURE = {
  create: 'Erro ao criar administrador',
  'set-active': 'Erro ao atualizar status do usuário',
  'change-password': 'Erro ao alterar a senha',
} as const;

function failureText(intent: unknown, error: string): string {
  const prefix = (typeof intent === 'string' && ownEntry(FAILURE, intent)) || 'Erro ao salvar';
  return `${prefix}: ${error}`;
}

// Passwords are never sent back into the page.
function safeValues(values: Record<string, string>) {
  const { email = '', fullName = '' } = values;
  return { email, fullName };
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const me = await requireAdmin(context, request);
  const parsed = await parseForm(request, userActionSchema);
  if (!parsed.ok) {
    return refuseForm(
      failureText(parsed.values.intent, parsed.error),
      { fieldErrors: parsed.fieldErrors, values: safeValues(parsed.values) },
      400,
    );
  }
  const form = parsed.data;
  if (form.intent === 'create') {
    const created = await createAdmin(context.db, form);
    if (!created.ok) {
      return refuseForm(
        failureText(form.intent, created.error),
        { fieldErrors: { email: created.error }, values: safeValues(form) },
        409,
      );
    }
    return successWithToast(request, 'Administrador criado com sucesso!');
  }
  if (form.intent === 'set-active') {
    const changed = await setAdminActive(context.db, {
      actorId: me.id,
      adminUserId: form.id,
      active: form.active,
    });
    if (!changed.ok) {
      return refuseForm(
        failureText(form.intent, changed.error),
        { fieldErrors: {}, values: {} },
        changed.error === ADMIN_MESSAGES.notFound ? 404 : 409,
      );
    }
    // The button that sent this changes (Ativar ⇄ Desativar) after the reload: the toast rides
    // the redirect (and shows without JavaScript too).
    return redirectWithToast(
      '/admin/users',
      toast(
        'success',
        form.active
          ? 'Administrador ativado com sucesso!'
          : 'Administrador desativado com sucesso!',
      ),
    );
  }
  const changed = await changePassword(context.db, {
    adminUserId: me.id,
    currentPassword: form.currentPassword,
    newPassword: form.newPassword,
    keepSessionId: await currentSessionId(request),
    ip: context.clientIp,
  });
  if (!changed.ok && changed.throttled) {
    return refuseForm(
      failureText(form.intent, changed.error),
      { fieldErrors: {}, values: {} },
      429,
      { 'Retry-After': String(changed.retryAfterSeconds) },
    );
  }
  if (!changed.ok) {
    return refuseForm(
      failureText(form.intent, changed.error),
      {
        fieldErrors:
          changed.error === ADMIN_MESSAGES.wrongPassword ? { currentPassword: changed.error } : {},
        values: {},
      },
      changed.error === ADMIN_MESSAGES.wrongPassword ? 400 : 404,
    );
  }
  return successWithToast(request, 'Senha alterada com sucesso!');
}

/** A 429's Retry-After reaches the browser too. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter ? { 'Retry-After': retryAfter } : loaderHeaders;
}

export function meta() {
  return [{ title: 'Usuários · Painel' }];
}

export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { admins, meId } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Usuários administradores</h1>
        <p className="mt-1 text-sm text-slate-600">
          Quem pode entrar no painel. Um administrador desativado é desconectado na hora e não
          consegue mais entrar até ser ativado de novo.
        </p>
      </div>
      <ToastFallback toast={actionData && 'toast' in actionData ? actionData.toast : undefined} />
      {admins.length === 0 ? (
        <p className="admin-card text-slate-700">Nenhum usuário administrador encontrado</p>
      ) : (
        <UserList admins={admins} meId={meId} />
      )}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <UserCreateForm />
        <UserPasswordForm />
      </div>
    </div>
  );
}
