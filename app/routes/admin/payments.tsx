import { ConnectionsForm } from '~/components/admin/connections-form';
import { mailSendingOf, testMailSending } from '~/flows/mail-sending.server';
import { saveConnections } from '~/flows/save-connections.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { connectionsView } from '~/modules/connections/index.server';
import {
  CONNECTIONS_MESSAGES,
  connectionsFormSchema,
  echoableValues,
} from '~/modules/connections/index.admin';
import { MAIL_TEST_MESSAGES } from '~/modules/notifications/index.server';
import { isPixConfigured } from '~/modules/payments/index.server';

import type { Route } from './+types/payments';

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const [connections, provider, settings] = await Promise.all([
    context.connections.get(),
    context.payments(),
    context.settings.get(),
  ]);
  return {
    // The plain values and where each field comes from: a secret's value never leaves the server.
    connections: connectionsView(connections),
    provider: provider ? { name: provider.name, accepts: provider.accepts } : null,
    pixReady: isPixConfigured(settings),
    production: context.secretsSet.production,
    publicUrlSet: context.publicUrl !== null,
    webhookUrl: `${context.publicUrl ?? context.origin}/api/payments/mercadopago`,
    // Where 'Enviar e-mail de teste' sends to.
    adminEmail: admin.email,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const admin = await requireAdmin(context, request);
  const parsed = await parseForm(request, connectionsFormSchema);
  if (!parsed.ok) {
    return refuseForm(`${CONNECTIONS_MESSAGES.notSaved}: ${parsed.error}`, {
      fieldErrors: parsed.fieldErrors,
      values: echoableValues(parsed.values),
    });
  }
  const form = parsed.data;
  if (form.intent === 'test-email') {
    const [connections, settings] = await Promise.all([
      context.connections.get(),
      context.settings.get(),
    ]);
    const sent = await testMailSending({
      sending: mailSendingOf(connections.values),
      to: admin.email,
      settings,
    });
    return sent.ok
      ? successWithToast(request, MAIL_TEST_MESSAGES.sent(admin.email))
      : refuseForm(sent.error, {}, 422);
  }
  let saved;
  try {
    saved = await saveConnections({
      store: context.connections,
      form,
      mercadoPagoApiUrl: context.mercadoPagoApiUrl,
      melhorEnvio: {
        apiUrl: context.melhorEnvioApiUrl,
        userAgent: context.melhorEnvioUserAgent,
      },
      admin,
      settings: await context.settings.get(),
    });
  } catch (error) {
    logger.error({ err: error }, 'Could not save the connections');
    return refuseForm(`${CONNECTIONS_MESSAGES.notSaved}. Tente novamente em instantes.`, {}, 503);
  }
  if (!saved.ok) {
    return refuseForm(saved.error, { fieldErrors: saved.fieldErrors, values: {} }, 422);
  }
  // Names only: what was typed stays out of the log.
  if (saved.changed.length) logger.info({ changed: saved.changed }, 'Connections saved');
  const message = saved.mailTestedTo
    ? `${CONNECTIONS_MESSAGES.saved} ${MAIL_TEST_MESSAGES.sent(saved.mailTestedTo)}`
    : CONNECTIONS_MESSAGES.saved;
  return redirectWithToast('/admin/payments', toast('success', message));
}

export function meta() {
  return [{ title: 'Pagamentos · Painel' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  return <ConnectionsForm {...loaderData} reply={actionData} />;
}
