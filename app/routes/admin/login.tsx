import { useEffect, useRef } from 'react';
import { Form, Link, redirect, useNavigation } from 'react-router';

import { ADMIN_FORM } from '~/components/admin/form-look';
import { FormField, SubmitButton } from '~/components/ui/form';
import { ToastFallback } from '~/components/admin/toaster';
import { isAdminPath } from '~/lib/admin-path';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { sitePath } from '~/lib/form';
import { logger } from '~/lib/logger.server';
import { refuseForm } from '~/lib/toast.server';
import {
  checkCredentials,
  createFirstAdmin,
  hasAnyAdmin,
  issueSetupCode,
  loginSchema,
  logSetupCode,
  startSession,
  type Throttled,
} from '~/modules/auth/index.server';

import type { Route } from './+types/login';

/** Where to go after signing in: a page of the admin the visitor was sent away from. */
function destination(request: Request): string {
  const wanted = new URL(request.url).searchParams.get('redirectTo');
  const parsed = sitePath.safeParse(wanted);
  // Checked where the browser will land: '/admin/../x' leads to '/x'.
  return parsed.success && isAdminPath(new URL(parsed.data, 'http://site.invalid').pathname)
    ? parsed.data
    : '/admin';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await context.admin()) throw redirect(destination(request));
  const setup = !(await hasAnyAdmin(context.db));
  if (setup) {
    // The code printed at start may have expired (24 h); a visit to this page prints a new one.
    const code = await issueSetupCode(context.db, { onlyIfNone: true, knownNoAdmin: true });
    if (code) logSetupCode(code, new URL('/admin/login', request.url).href);
  }
  const settings = await context.settings.get();
  return { setup, storeName: settings.store_name };
}

/** Locked out for a while: told when to come back (the message says the same in words). */
function throttledReply(refused: Throttled, values: Record<string, string>) {
  return refuseForm(refused.error, { fieldErrors: {}, values }, 429, {
    'Retry-After': String(refused.retryAfterSeconds),
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, loginSchema);
  if (!parsed.ok) {
    // Passwords are never sent back into the page.
    const { email = '', fullName = '', setupCode = '' } = parsed.values;
    return refuseForm(parsed.error, {
      fieldErrors: parsed.fieldErrors,
      values: { email, fullName, setupCode },
    });
  }
  const ip = context.clientIp;
  const form = parsed.data;
  if (form.intent === 'create-admin') {
    const created = await createFirstAdmin(context.db, { ...form, ip });
    if (!created.ok) {
      const values = { email: form.email, fullName: form.fullName };
      return created.throttled
        ? throttledReply(created, values)
        : refuseForm(created.error, { fieldErrors: {}, values }, 409);
    }
    logger.info({ adminUserId: created.adminUserId }, 'First admin created');
    const cookie = await startSession(context.db, request, created.adminUserId);
    return redirect('/admin', { status: 303, headers: { 'Set-Cookie': cookie } });
  }
  const result = await checkCredentials(context.db, { ...form, ip });
  if (!result.ok) {
    const values = { email: form.email };
    return result.throttled
      ? throttledReply(result, values)
      : refuseForm(result.error, { fieldErrors: {}, values }, 401);
  }
  const cookie = await startSession(context.db, request, result.adminUserId);
  return redirect(destination(request), { status: 303, headers: { 'Set-Cookie': cookie } });
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter ? { 'Retry-After': retryAfter } : loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Entrar no painel · ${loaderData?.storeName ?? 'Vitrine'}` },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting =
    navigation.state === 'submitting' && navigation.formAction?.startsWith('/admin/login');
  const reply = actionData && 'toast' in actionData ? actionData : undefined;
  const fieldErrors = reply?.fieldErrors ?? {};
  const values = reply?.values ?? {};
  // A refused password is not left in the field for the next try (the server never echoes it).
  const passwordField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (reply && passwordField.current) passwordField.current.value = '';
  }, [reply]);
  const field = (
    label: string,
    name: string,
    input: React.InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> },
  ) => (
    <FormField
      look={ADMIN_FORM}
      idPrefix="login"
      name={name}
      label={label}
      error={fieldErrors[name]}
    >
      {(control) => (
        <input
          {...control}
          type="text"
          required
          defaultValue={values[name]}
          className="admin-input"
          {...input}
        />
      )}
    </FormField>
  );
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-10 font-sans text-slate-900">
      <div className="admin-card w-full max-w-sm p-6">
        <h1 className="text-center text-2xl font-bold">{loaderData.storeName}</h1>
        <p className="mt-1 text-center text-sm text-slate-600">
          {loaderData.setup ? 'Criar administrador' : 'Painel administrativo'}
        </p>
        {reply ? (
          <div className="mt-4">
            <ToastFallback toast={reply.toast} />
          </div>
        ) : null}
        {loaderData.setup ? (
          <Form method="post" className="mt-6 space-y-4">
            <p className="text-sm text-slate-700">
              Ainda não há administrador. Informe o código de configuração que aparece no registro
              do servidor e crie o primeiro acesso.
            </p>
            <input type="hidden" name="intent" value="create-admin" />
            {field('Código de configuração', 'setupCode', { autoComplete: 'off' })}
            {field('Nome', 'fullName', { autoComplete: 'name' })}
            {field('E-mail', 'email', { type: 'email', autoComplete: 'email' })}
            {field('Senha (mínimo de 8 caracteres)', 'password', {
              type: 'password',
              autoComplete: 'new-password',
              minLength: 8,
              ref: passwordField,
            })}
            <SubmitButton
              busy={submitting}
              busyLabel="Criando..."
              className="admin-button-primary w-full"
            >
              Criar administrador
            </SubmitButton>
          </Form>
        ) : (
          <Form method="post" className="mt-6 space-y-4">
            <input type="hidden" name="intent" value="sign-in" />
            {field('E-mail', 'email', { type: 'email', autoComplete: 'username' })}
            {field('Senha', 'password', {
              type: 'password',
              autoComplete: 'current-password',
              ref: passwordField,
            })}
            <SubmitButton
              busy={submitting}
              busyLabel="Entrando..."
              className="admin-button-primary w-full"
            >
              Entrar no painel
            </SubmitButton>
            <p className="text-center text-sm">
              <Link
                to="/admin/esqueci-senha"
                className="font-medium text-blue-700 underline hover:text-blue-900"
              >
                Esqueci minha senha
              </Link>
            </p>
          </Form>
        )}
      </div>
    </main>
  );
}
