import { useEffect, useRef } from 'react';
import { data, Form, Link, useNavigation } from 'react-router';

import { ADMIN_FORM } from '~/components/admin/form-look';
import { ToastFallback } from '~/components/admin/toaster';
import { FormField, SubmitButton } from '~/components/ui/form';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { redirectDocumentWithToast, refuseForm, toast } from '~/lib/toast.server';
import { PASSWORD_RESET_MESSAGES, resetPasswordSchema } from '~/modules/auth';
import {
  checkPasswordResetToken,
  resetPasswordWithToken,
  startSession,
  type PasswordResetState,
} from '~/modules/auth/index.server';
import { hitRateLimit, RATE_LIMITS, waitText } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/reset-password';

/** A link that no longer works: 404 for one we never made, 410 for one used or expired. */
const GONE: Record<Exclude<PasswordResetState, 'valid'>, { status: number; message: string }> = {
  invalid: { status: 404, message: PASSWORD_RESET_MESSAGES.invalid },
  used: { status: 410, message: PASSWORD_RESET_MESSAGES.used },
  expired: { status: 410, message: PASSWORD_RESET_MESSAGES.expired },
};

/**
 * The e-mail's link: the form for a new password while the token works, else why it does not.
 * Opening it changes nothing (mail scanners open links); only the form's POST uses the token.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('chave') ?? '';
  const [settings, found] = await Promise.all([
    context.settings.get(),
    checkPasswordResetToken(context.db, token),
  ]);
  const storeName = settings.store_name;
  if (found.state !== 'valid') {
    const gone = GONE[found.state];
    return data({ storeName, token: null, email: null, problem: gone.message }, gone.status);
  }
  return { storeName, token, email: found.email ?? null, problem: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const limited = await hitRateLimit(context.db, RATE_LIMITS.passwordResetToken, {
    address: context.clientIp,
  });
  if (!limited.allowed) {
    return refuseForm(
      PASSWORD_RESET_MESSAGES.throttled(waitText(limited.retryAfterSeconds)),
      {},
      429,
      {
        'Retry-After': String(limited.retryAfterSeconds),
      },
    );
  }
  const parsed = await parseForm(request, resetPasswordSchema);
  // Passwords are never sent back into the page.
  if (!parsed.ok) return refuseForm(parsed.error, { fieldErrors: parsed.fieldErrors });
  const result = await resetPasswordWithToken(context.db, {
    token: parsed.data.chave,
    newPassword: parsed.data.newPassword,
  });
  if (!result.ok) {
    const gone = GONE[result.state];
    return refuseForm(gone.message, {}, gone.status);
  }
  logger.info(
    { adminUserId: result.adminUserId, ip: context.clientIp },
    'Admin password reset by e-mail link',
  );
  // Whoever holds the mailbox has just proved it: signed in here, every other session ended.
  const cookie = await startSession(context.db, request, result.adminUserId);
  return redirectDocumentWithToast('/admin', toast('success', PASSWORD_RESET_MESSAGES.done), {
    headers: { 'Set-Cookie': cookie },
  });
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  // The link's token must not travel to other sites in a Referer.
  return {
    'Referrer-Policy': 'no-referrer',
    ...(retryAfter ? { 'Retry-After': retryAfter } : Object.fromEntries(loaderHeaders)),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Criar uma nova senha · ${loaderData?.storeName ?? 'Vitrine'}` },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const reply = actionData && 'toast' in actionData ? actionData : undefined;
  const fieldErrors: Record<string, string> = reply?.fieldErrors ?? {};
  // A refused password is not left in the fields for the next try.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (reply) form.current?.reset();
  }, [reply]);
  const passwordField = (label: string, name: string, hint?: string) => (
    <FormField
      look={ADMIN_FORM}
      idPrefix="reset"
      name={name}
      label={label}
      hint={hint}
      error={fieldErrors[name]}
    >
      {(control) => (
        <input
          {...control}
          type="password"
          required
          minLength={8}
          maxLength={128}
          autoComplete="new-password"
          className="admin-input"
        />
      )}
    </FormField>
  );
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-10 font-sans text-slate-900">
      <div className="admin-card w-full max-w-sm p-6">
        <h1 className="text-center text-2xl font-bold">{loaderData.storeName}</h1>
        <p className="mt-1 text-center text-sm text-slate-600">Criar uma nova senha</p>
        {reply ? (
          <div className="mt-4">
            <ToastFallback toast={reply.toast} />
          </div>
        ) : null}
        {loaderData.token ? (
          <Form method="post" ref={form} className="mt-6 space-y-4">
            <p className="text-sm text-slate-700">
              Nova senha para <strong className="break-words">{loaderData.email}</strong>. Ao
              salvar, as sessões abertas desta conta são encerradas.
            </p>
            <input type="hidden" name="chave" value={loaderData.token} />
            {/* Lets password managers file the new password under the right account. */}
            <input
              type="email"
              name="username"
              value={loaderData.email ?? ''}
              autoComplete="username"
              readOnly
              hidden
            />
            {passwordField('Nova senha', 'newPassword', 'Entre 8 e 128 caracteres.')}
            {passwordField('Repita a nova senha', 'confirmPassword')}
            <SubmitButton
              busy={navigation.state === 'submitting'}
              busyLabel="Salvando..."
              className="admin-button-primary w-full"
            >
              Salvar nova senha
            </SubmitButton>
          </Form>
        ) : (
          <p role="alert" className="mt-6 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {loaderData.problem}
          </p>
        )}
        <p className="mt-6 flex flex-col items-center gap-2 text-center text-sm">
          {loaderData.token ? null : (
            <Link
              to="/admin/esqueci-senha"
              className="font-medium text-blue-700 underline hover:text-blue-900"
            >
              Pedir um novo link
            </Link>
          )}
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
