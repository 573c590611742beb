import { data, Form, Link, useNavigation } from 'react-router';

import { ADMIN_FORM } from '~/components/admin/form-look';
import { ToastFallback } from '~/components/admin/toaster';
import { FormField, SubmitButton } from '~/components/ui/form';
import { askForPasswordReset } from '~/flows/admin-password-reset.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { refuseForm, toast } from '~/lib/toast.server';
import { forgotPasswordSchema, PASSWORD_RESET_MESSAGES } from '~/modules/auth';
import { waitText } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/forgot-password';

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  return { storeName: settings.store_name };
}

/**
 * 'Esqueci minha senha': the answer is the same whether or not an admin has the e-mail (see
 * askForPasswordReset); only a client asking too often is told to wait.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, forgotPasswordSchema);
  if (!parsed.ok) {
    return refuseForm(parsed.error, {
      fieldErrors: parsed.fieldErrors,
      values: { email: parsed.values.email ?? '' },
    });
  }
  const asked = await askForPasswordReset(context.db, {
    email: parsed.data.email,
    ip: context.clientIp,
    signedInAs: (await context.admin())?.email,
  });
  if (!asked.ok) {
    return refuseForm(
      PASSWORD_RESET_MESSAGES.throttled(waitText(asked.retryAfterSeconds)),
      { values: { email: parsed.data.email } },
      429,
      { 'Retry-After': String(asked.retryAfterSeconds) },
    );
  }
  return data({ ok: true as const, toast: toast('success', PASSWORD_RESET_MESSAGES.requested) });
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter ? { 'Retry-After': retryAfter } : loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Esqueci minha senha · ${loaderData?.storeName ?? 'Vitrine'}` },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const reply = actionData && 'toast' in actionData ? actionData : undefined;
  const sent = reply?.ok === true;
  const refused = reply && !reply.ok ? reply : undefined;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-10 font-sans text-slate-900">
      <div className="admin-card w-full max-w-sm p-6">
        <h1 className="text-center text-2xl font-bold">{loaderData.storeName}</h1>
        <p className="mt-1 text-center text-sm text-slate-600">Esqueci minha senha</p>
        {reply ? (
          <div className="mt-4">
            <ToastFallback toast={reply.toast} />
          </div>
        ) : null}
        {sent ? null : (
          <Form method="post" className="mt-6 space-y-4">
            <p className="text-sm text-slate-700">
              Informe o e-mail do seu acesso ao painel. Enviaremos um link para você criar uma nova
              senha.
            </p>
            <FormField
              look={ADMIN_FORM}
              idPrefix="forgot"
              name="email"
              label="E-mail"
              error={refused?.fieldErrors.email}
            >
              {(control) => (
                <input
                  {...control}
                  type="email"
                  required
                  autoComplete="username"
                  defaultValue={refused?.values.email}
                  className="admin-input"
                />
              )}
            </FormField>
            <SubmitButton
              busy={navigation.state === 'submitting'}
              busyLabel="Enviando..."
              className="admin-button-primary w-full"
            >
              Enviar link
            </SubmitButton>
          </Form>
        )}
        <p className="mt-6 text-center text-sm">
          <Link
            to="/admin/login"
            className="font-medium text-blue-700 underline hover:text-blue-900"
          >
            Voltar para o login
          </Link>
        </p>
      </div>
    </main>
  );
}
