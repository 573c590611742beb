import { redirect } from 'react-router';

import { IntegrationsScreen } from '~/components/admin/integrations-screen';
import {
  BLING_CALLBACK_PATH,
  integrationsScreen,
  saveBlingCredentials,
  startBlingConnection,
} from '~/flows/erp-integration.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { redirectWithToast, refuseForm, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { integrationsFormSchema } from '~/modules/erp/index.admin';

import type { Route } from './+types/integrations';

const NOT_SAVED = 'Erro ao salvar a integração';
const SAVED = 'Integração salva com sucesso!';

/** 'Conectar ao Bling' is a link (a form's redirect to another site is refused by the CSP). */
const CONNECT_PARAM = 'conectar';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  if (new URL(request.url).searchParams.get(CONNECT_PARAM) === 'bling') {
    const started = await startBlingConnection(context, new Date());
    if (started.ok) return redirect(started.url);
    return redirectWithToast('/admin/integrations', toast('error', started.error));
  }
  return {
    ...(await integrationsScreen(context)),
    // What staff register as the application's redirect link at Bling.
    callbackUrl: `${context.publicUrl ?? context.origin}${BLING_CALLBACK_PATH}`,
    webhookUrl: `${context.publicUrl ?? context.origin}/api/invoices/bling`,
    connectHref: `/admin/integrations?${CONNECT_PARAM}=bling`,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const admin = await requireAdmin(context, request);
  const parsed = await parseForm(request, integrationsFormSchema);
  if (!parsed.ok) {
    return refuseForm(`${NOT_SAVED}: ${parsed.error}`, {
      fieldErrors: parsed.fieldErrors,
      values: {},
    });
  }
  const form = parsed.data;
  let saved;
  try {
    saved = await saveBlingCredentials(context, form, admin);
  } catch (error) {
    logger.error({ err: error }, 'Could not save the Bling credentials');
    return refuseForm(`${NOT_SAVED}. Tente novamente em instantes.`, {}, 503);
  }
  if (!saved.ok)
    return refuseForm(saved.error, { fieldErrors: saved.fieldErrors, values: {} }, 422);
  if (saved.changed.length) logger.info({ changed: saved.changed }, 'Integrations saved');
  return redirectWithToast('/admin/integrations', toast('success', SAVED));
}

export function meta() {
  return [{ title: 'Integrações · Painel' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export default function AdminIntegrations({ loaderData, actionData }: Route.ComponentProps) {
  return <IntegrationsScreen {...loaderData} reply={actionData} />;
}
