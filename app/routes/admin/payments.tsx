import { ConnectionsForm } from '~/components/admin/connections-form';
import { saveConnections } from '~/flows/save-connections.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { redirectWithToast, refuseForm, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { connectionsView } from '~/modules/connections/index.server';
import {
  CONNECTIONS_MESSAGES,
  connectionsFormSchema,
  echoableValues,
} from '~/modules/connections/index.admin';
import { isPixConfigured } from '~/modules/payments/index.server';

import type { Route } from './+types/payments';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
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
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, connectionsFormSchema);
  if (!parsed.ok) {
    return refuseForm(`${CONNECTIONS_MESSAGES.notSaved}: ${parsed.error}`, {
      fieldErrors: parsed.fieldErrors,
      values: echoableValues(parsed.values),
    });
  }
  const form = parsed.data;
  let saved;
  try {
    saved = await saveConnections({
      store: context.connections,
      form,
      mercadoPagoApiUrl: context.mercadoPagoApiUrl,
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
  return redirectWithToast('/admin/payments', toast('success', CONNECTIONS_MESSAGES.saved));
}

export function meta() {
  return [{ title: 'Pagamentos · Painel' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  return <ConnectionsForm {...loaderData} reply={actionData} />;
}
