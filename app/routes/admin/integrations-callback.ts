import { finishBlingConnection } from '~/flows/erp-integration.server';
import { redirectWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';

import type { Route } from './+types/integrations-callback';

/**
 * Where Bling sends staff back after they authorize the store (the application's redirect
 * link): the state is checked, the code exchanged, and staff land on the integrations screen.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const done = await finishBlingConnection(context, new URL(request.url).searchParams, new Date());
  return redirectWithToast(
    '/admin/integrations',
    done.ok ? toast('success', done.message) : toast('error', done.error),
  );
}
