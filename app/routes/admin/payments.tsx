import { ConnectionsForm } from '~/components/admin/connections-form';
import {
  connectionsSavedText,
  connectionsScreen,
  pixApiAdminCheck,
  saveConnections,
  sendStaffTestEmail,
} from '~/flows/save-connections.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import {
  CONNECTIONS_MESSAGES,
  connectionsFormSchema,
  echoableValues,
  MAX_CERTIFICATE_BYTES,
} from '~/modules/connections/index.admin';

import type { Route } from './+types/payments';

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  return {
    ...(await connectionsScreen(context)),
    production: context.secretsSet.production,
    publicUrlSet: context.publicUrl !== null,
    webhookUrl: `${context.publicUrl ?? context.origin}/api/payments/mercadopago`,
    pixApiWebhookUrl: `${context.publicUrl ?? context.origin}/api/payments/pix-api`,
    // Where 'Enviar e-mail de teste' sends to.
    adminEmail: admin.email,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const admin = await requireAdmin(context, request);
  const parsed = await parseForm(request, connectionsFormSchema, {
    // The bank's certificate, uploaded with the form.
    files: { folder: context.uploadFolder, maxFileBytes: MAX_CERTIFICATE_BYTES, maxFiles: 1 },
  });
  if (!parsed.ok) {
    return refuseForm(`${CONNECTIONS_MESSAGES.notSaved}: ${parsed.error}`, {
      fieldErrors: parsed.fieldErrors,
      values: echoableValues(parsed.values),
    });
  }
  const form = parsed.data;
  if (form.intent === 'test-email') {
    const sent = await sendStaffTestEmail(context, admin.email);
    return sent.ok ? successWithToast(request, sent.message) : refuseForm(sent.error, {}, 422);
  }
  if (form.intent === 'pix-api-test' || form.intent === 'pix-api-webhook') {
    const checked = await pixApiAdminCheck(context, form.intent);
    return checked.ok
      ? successWithToast(request, checked.message)
      : refuseForm(checked.error, {}, 422);
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
  return redirectWithToast('/admin/payments', toast('success', connectionsSavedText(saved)));
}

export function meta() {
  return [{ title: 'Pagamentos · Painel' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  return <ConnectionsForm {...loaderData} reply={actionData} />;
}
