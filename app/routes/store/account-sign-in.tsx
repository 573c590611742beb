import { Form, redirect, redirectDocument, useNavigation } from 'react-router';

import { seoContext } from '~/components/store/store-data';
import { ErrorSummary, FormField, STORE_FORM, SubmitButton } from '~/components/ui/form';
import { findSignedInShopper } from '~/flows/shopper-account.server';
import { askForShopperCode, signInWithCode } from '~/flows/shopper-sign-in.server';
import { sitePath } from '~/lib/form';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import { ACCOUNT_MESSAGES, ACCOUNT_PATH, SIGN_IN_PATH, signInSchema } from '~/modules/shoppers';

import type { Route } from './+types/account-sign-in';

/** Where to go once signed in: `voltar`, a path on this site (the checkout), else the account. */
function backTo(value: unknown): string {
  return typeof value === 'string' && sitePath.safeParse(value).success ? value : ACCOUNT_PATH;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const back = backTo(new URL(request.url).searchParams.get('voltar'));
  if (await findSignedInShopper(context.db, request, new Date())) throw redirect(back);
  return { back };
}

/**
 * '/conta/entrar': `send` e-mails a six-digit code (limited per address and per e-mail), and
 * the page asks for it; `verify` checks it and signs this browser in for 90 days.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const back = backTo(new URL(request.url).searchParams.get('voltar'));
  const parsed = await parseForm(request, signInSchema);
  if (!parsed.ok) {
    const step = parsed.values.intent === 'verify' ? 'code' : 'email';
    return refuseForm(parsed.error, { ...parsed, step });
  }
  const now = new Date();
  const { email } = parsed.data;
  if (parsed.data.intent === 'send') {
    const asked = await askForShopperCode(
      context.db,
      { email, ip: context.clientIp, purpose: 'sign-in' },
      now,
    );
    if (!asked.ok) {
      return refuseForm(asked.message, { values: { email }, step: 'email' }, 429, {
        'Retry-After': String(asked.retryAfterSeconds),
      });
    }
    return successWithToast(request, ACCOUNT_MESSAGES.codeSent(email), { step: 'code', email });
  }
  const signedIn = await signInWithCode(
    context.db,
    request,
    { email, code: parsed.data.code },
    now,
  );
  if (!signedIn.ok) {
    return refuseForm(
      signedIn.message,
      { fieldErrors: { code: signedIn.message }, values: { email }, step: 'code' },
      signedIn.spent ? 410 : 400,
    );
  }
  // A whole page load: the layout and the checkout read the new session afresh.
  return redirectDocument(back, { status: 303, headers: { 'Set-Cookie': signedIn.setCookie } });
}

export const headers = privatePageHeaders;

export const handle = PRIVATE_PAGE_HANDLE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), { title: 'Entrar', path: SIGN_IN_PATH, noindex: true });
}

export default function AccountSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const reply = actionData && 'toast' in actionData ? actionData : undefined;
  const askingCode = reply?.step === 'code';
  const email = (reply && ('email' in reply ? reply.email : reply.values.email)) ?? '';
  const refused = reply && !reply.ok ? reply : undefined;
  const action = `${SIGN_IN_PATH}?${new URLSearchParams({ voltar: loaderData.back })}`;
  return (
    <div className="section-spacing mx-auto flex max-w-md flex-col gap-4 px-4">
      <h1 className="text-2xl sm:text-3xl">Entrar</h1>
      <p>
        Sem senha: informe seu e-mail e enviaremos um código de 6 dígitos. Com ele você vê seus
        pedidos de qualquer aparelho, guarda endereços e favoritos.
      </p>
      {refused && Object.keys(refused.fieldErrors).length === 0 ? (
        <ErrorSummary look={STORE_FORM} message={refused.toast.message} />
      ) : null}
      {askingCode ? (
        <>
          <p role="status" className="font-semibold">
            {reply.ok ? reply.toast.message : ACCOUNT_MESSAGES.codeSent(email)}
          </p>
          <Form method="post" action={action} className="flex flex-col gap-3" noValidate>
            <input type="hidden" name="intent" value="verify" />
            <input type="hidden" name="email" value={email} />
            <FormField
              look={STORE_FORM}
              idPrefix="sign-in"
              name="code"
              label="Código de 6 dígitos"
              error={refused?.fieldErrors.code}
              announce
            >
              {(control) => (
                <input
                  {...control}
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  maxLength={6}
                  required
                  className="field"
                />
              )}
            </FormField>
            <SubmitButton busy={busy} busyLabel="Entrando…" className="btn btn-primary">
              Entrar
            </SubmitButton>
          </Form>
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="send" />
            <input type="hidden" name="email" value={email} />
            <button type="submit" className="text-sm text-link underline">
              Enviar um novo código
            </button>
          </Form>
        </>
      ) : (
        <Form method="post" action={action} className="flex flex-col gap-3" noValidate>
          <input type="hidden" name="intent" value="send" />
          <FormField
            look={STORE_FORM}
            idPrefix="sign-in"
            name="email"
            label="E-mail"
            error={refused?.fieldErrors.email}
            announce
          >
            {(control) => (
              <input
                {...control}
                type="email"
                autoComplete="email"
                required
                maxLength={254}
                defaultValue={email}
                className="field"
              />
            )}
          </FormField>
          <SubmitButton busy={busy} busyLabel="Enviando…" className="btn btn-primary">
            Receber código
          </SubmitButton>
        </Form>
      )}
    </div>
  );
}
