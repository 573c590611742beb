import {
  isRouteErrorResponse,
  Link,
  useLocation,
  useOutletContext,
  useRouteError,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';

import { OrderDetail, type OrderActionReply } from '~/components/admin/order-detail';
import { useToastFrom } from '~/components/admin/toaster';
import { loadStaffOrder, runOrderAction } from '~/flows/admin-orders.server';
import { isDocumentRequest, parseForm, refuseOtherMethods } from '~/lib/form.server';
import { redirectWithToast, refuseForm, successWithToast, toast } from '~/lib/toast.server';
import { routeError } from '~/lib/route-errors';
import { requireAdmin } from '~/modules/auth/index.server';
import { orderFiltersQuery, parseOrderFilters } from '~/modules/orders/index.admin';
import { orderActionSchema } from '~/modules/orders/index.admin.server';

import type { Route } from './+types/order-detail';
import type { OrdersOutletContext } from './orders';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const page = await loadStaffOrder(context, params.id);
  if (!page.ok) throw routeError(page.status, page.error);
  const { order, timeZone, refundable, labels, erp, erpConnected } = page;
  return { order, timeZone, refundable, labels, erp, erpConnected };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const admin = await requireAdmin(context, request);
  const parsed = await parseForm(request, orderActionSchema);
  if (!parsed.ok) {
    return refuseForm(parsed.error, {
      intent: parsed.values.intent,
      fieldErrors: parsed.fieldErrors,
      values: parsed.values,
    });
  }
  const form = parsed.data;
  const result = await runOrderAction(context, params.id, form, admin);
  if (!result.ok) {
    return refuseForm(result.error, { intent: form.intent }, result.status);
  }
  // A warning (a payment after cancellation) is shown as loudly as an error.
  const done = toast(result.warning ? 'error' : 'success', result.message);
  // The list's filters ride along, rebuilt from what they mean (no stray parameters).
  const search = orderFiltersQuery(parseOrderFilters(new URL(request.url).searchParams));
  if (form.intent === 'delete') return redirectWithToast(`/admin/orders${search}`, done);
  // Without JavaScript, the page again (so a reload posts nothing twice), with the toast.
  if (isDocumentRequest(request)) {
    return redirectWithToast(`/admin/orders/${params.id}${search}`, done);
  }
  return successWithToast(request, done, { intent: form.intent });
}

/**
 * A refusal because the order changed meanwhile (another admin, another tab) reloads the page,
 * so staff see the status that stopped them.
 */
export function shouldRevalidate({
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Pedido ${loaderData.order.number} · Painel` : 'Pedido · Painel' }];
}

export default function OrderDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { inDialog, listHref } = useOutletContext<OrdersOutletContext>();
  const location = useLocation();
  useToastFrom(actionData);
  return (
    <div className="space-y-4">
      {inDialog ? null : (
        <Link to={listHref} className="inline-block text-sm text-blue-800 underline">
          ← Voltar para pedidos
        </Link>
      )}
      <OrderDetail
        order={loaderData.order}
        timeZone={loaderData.timeZone}
        refundable={loaderData.refundable}
        labels={loaderData.labels}
        erp={loaderData.erp}
        erpConnected={loaderData.erpConnected}
        actionUrl={`${location.pathname}${location.search}`}
        titleId="order-detail-title"
        inDialog={inDialog}
        reply={actionData as OrderActionReply | undefined}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="admin-card space-y-3">
      <h1 id="order-detail-title" className="text-xl font-bold">
        {missing ? 'Pedido não encontrado' : 'Erro ao carregar o pedido'}
      </h1>
      <p className="text-slate-700">
        {missing ? 'O pedido não existe ou foi excluído.' : 'Tente novamente em alguns instantes.'}
      </p>
      <Link to="/admin/orders" className="admin-button-secondary">
        Voltar para pedidos
      </Link>
    </div>
  );
}
