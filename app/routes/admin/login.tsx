import { useEffect, useRef } from 'react';
import { data, Form, redirect, useNavigation } from 'react-router';
import { z } from 'zod';

import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { sitePath } from '~/lib/form';
import { logger } from '~/lib/logger.server';
import { firstAdminSchema, signInSchema } from '~/modules/auth';
import {
  checkCredentials,
  createFirstAdmin,
  findSignedInAdmin,
  hasAnyAdmin,
  issueSetupCode,
  logSetupCode,
  startSession,
} from '~/modules/auth/index.server';

import type { Route } from './+types/login';

/** Where to go after signing in: a page of the admin the visitor was sent away from. */
function destination(request: Request): string {
  const wanted = new URL(request.url).searchParams.get('redirectTo');
  const parsed = sitePath.safeParse(wanted);
  return parsed.success && /^\/admin(\/|$|\?)/.test(parsed.data) ? parsed.data : '/admin';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await findSignedInAdmin(context.db, request)) throw redirect(destination(request));
  const setup = !(await hasAnyAdmin(context.db));
  if (setup) {
    // The code printed at start may have expired (24 h); a visit to this page prints a new one.
    const code = await issueSetupCode(context.db, { onlyIfNone: true });
    if (code) logSetupCode(code);
  }
  const settings = await context.settings.get();
  return { setup, storeName: settings.store_name };
}

const loginSchema = z.discriminatedUnion(
  'intent',
  [
    signInSchema.extend({ intent: z.literal('sign-in') }),
    firstAdminSchema.extend({ intent: z.literal('create-admin') }),
  ],
  { error: 'Envie os dados pelo formulário de acesso.' },
);

type ActionReply = {
  error: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, loginSchema);
  if (!parsed.ok) {
    // Passwords are never sent back into the page.
    const { email = '', fullName = '', setupCode = '' } = parsed.values;
    return data<ActionReply>(
      {
        error: parsed.error,
        fieldErrors: parsed.fieldErrors,
        values: { email, fullName, setupCode },
      },
      400,
    );
  }
  const ip = context.clientIp;
  const form = parsed.data;
  if (form.intent === 'create-admin') {
    const created = await createFirstAdmin(context.db, { ...form, ip });
    if (!created.ok) {
      return data<ActionReply>(
        { error: created.error, values: { email: form.email, fullName: form.fullName } },
        409,
      );
    }
    logger.info({ adminUserId: created.adminUserId }, 'First admin created');
    const cookie = await startSession(context.db, request, created.adminUserId);
    return redirect('/admin', { status: 303, headers: { 'Set-Cookie': cookie } });
  }
  const result = await checkCredentials(context.db, { ...form, ip });
  if (!result.ok) {
    return data<ActionReply>(
      { error: result.error, values: { email: form.email } },
      result.throttled ? { status: 429, headers: { 'Retry-After': '900' } } : 401,
    );
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
    { title: `Entrar no Painel · ${loaderData?.storeName ?? 'Vitrine'}` },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting =
    navigation.state === 'submitting' && navigation.formAction?.startsWith('/admin/login');
  const reply = actionData as ActionReply | undefined;
  const fieldErrors = reply?.fieldErrors ?? {};
  const values = reply?.values ?? {};
  const error = reply?.error;
  // A refused password is not left in the field for the next try (the server never echoes it).
  const passwordField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (reply && passwordField.current) passwordField.current.value = '';
  }, [reply]);
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-10 font-sans text-slate-900">
      <div className="admin-card w-full max-w-sm p-6">
        <h1 className="text-center text-2xl font-bold">{loaderData.storeName}</h1>
        <p className="mt-1 text-center text-sm text-slate-600">
          {loaderData.setup ? 'Criar administrador' : 'Painel administrativo'}
        </p>
        {error ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        {loaderData.setup ? (
          <Form method="post" className="mt-6 space-y-4">
            <p className="text-sm text-slate-700">
              Ainda não há administrador. Informe o código de configuração que aparece no registro
              do servidor e crie o primeiro acesso.
            </p>
            <input type="hidden" name="intent" value="create-admin" />
            <Field
              label="Código de configuração"
              name="setupCode"
              autoComplete="off"
              values={values}
              errors={fieldErrors}
            />
            <Field
              label="Nome"
              name="fullName"
              autoComplete="name"
              values={values}
              errors={fieldErrors}
            />
            <Field
              label="E-mail"
              name="email"
              type="email"
              autoComplete="email"
              values={values}
              errors={fieldErrors}
            />
            <Field
              label="Senha (mínimo de 8 caracteres)"
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={8}
              ref={passwordField}
              values={{}}
              errors={fieldErrors}
            />
            <button type="submit" className="admin-button-primary w-full" disabled={submitting}>
              {submitting ? 'Criando...' : 'Criar administrador'}
            </button>
          </Form>
        ) : (
          <Form method="post" className="mt-6 space-y-4">
            <input type="hidden" name="intent" value="sign-in" />
            <Field
              label="E-mail"
              name="email"
              type="email"
              autoComplete="username"
              values={values}
              errors={fieldErrors}
            />
            <Field
              label="Senha"
              name="password"
              type="password"
              autoComplete="current-password"
              ref={passwordField}
              values={{}}
              errors={fieldErrors}
            />
            <button type="submit" className="admin-button-primary w-full" disabled={submitting}>
              {submitting ? 'Entrando...' : 'Entrar no Painel'}
            </button>
          </Form>
        )}
      </div>
    </main>
  );
}

function Field({
  label,
  name,
  type = 'text',
  values,
  errors,
  ...rest
}: {
  label: string;
  name: string;
  type?: string;
  values: Record<string, string>;
  errors: Record<string, string>;
} & React.InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> }) {
  const error = errors[name];
  return (
    <div>
      <label htmlFor={`login-${name}`} className="admin-label">
        {label}
      </label>
      <input
        id={`login-${name}`}
        name={name}
        type={type}
        required
        defaultValue={values[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `login-${name}-error` : undefined}
        className="admin-input"
        {...rest}
      />
      {error ? (
        <p id={`login-${name}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
