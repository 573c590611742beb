import { Form, Link, redirect } from 'react-router';

import { OrderLookupForm } from '~/components/store/order-lookup-form';
import { seoContext } from '~/components/store/store-data';
import { Money, SignedMoney } from '~/components/ui/money';
import { OrderLine } from '~/components/ui/order-line';
import { TrackingCode } from '~/components/ui/tracking-code';
import { countOrderLookup, sendOrderLink } from '~/flows/order-link.server';
import { formatDateTime } from '~/lib/date-format';
import { isDocumentRequest, parseForm, refuseOtherMethods } from '~/lib/form.server';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import {
  carrierShippingLine,
  DELIVERY_LINES,
  ORDER_LOOKUP_ANCHOR,
  ORDER_LOOKUP_MESSAGES,
  ORDER_LOOKUP_NOTICE_PARAM,
  ORDER_LOOKUP_SENT,
  SHOPPER_STATUS_LABELS,
  trackingLink,
  type OrderStatus,
} from '~/modules/orders';
import { mediaSrcSet } from '~/modules/media';
import {
  listOrdersForToken,
  orderLookupSchema,
  readOrderToken,
} from '~/modules/orders/index.server';

import type { Route } from './+types/order-history';

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = await readOrderToken(request);
  const [orders, { timezone }] = await Promise.all([
    token ? listOrdersForToken(context.db, token) : [],
    context.settings.get(),
  ]);
  return {
    orders: orders.map((order) => ({
      id: order.id,
      number: order.number,
      status: order.status,
      // Written on the server on the store's clock, so the browser renders the same text.
      placedAt: formatDateTime(order.createdAt, timezone),
      paidAt: order.paidAt ? formatDateTime(order.paidAt, timezone) : null,
      totalCents: order.totalCents,
      adjustments: order.adjustments.map(({ label, cents }) => ({ label, cents })),
      shipping: carrierShippingLine(order),
      trackingCode: order.trackingCode,
      lines: order.lines,
    })),
  };
}

/**
 * 'Encontrar meu pedido': the order's link is e-mailed to the address on file when the number
 * and the e-mail or CPF match (sendOrderLink), and the answer is the same whether or not they
 * did. Without JavaScript the browser is sent back to this page, which says so (`?busca=enviada`).
 * Counted per client address before anything is read (told, with a 429); the e-mail or CPF's own
 * limit counts links sent (sendOrderLink) and is never told.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const busy = await countOrderLookup(context.db, context.clientIp);
  if (busy) {
    return refuseForm(busy.message, {}, 429, { 'Retry-After': String(busy.retryAfterSeconds) });
  }
  const parsed = await parseForm(request, orderLookupSchema);
  if (!parsed.ok) {
    return refuseForm(parsed.error, { fieldErrors: parsed.fieldErrors, values: parsed.values });
  }
  await sendOrderLink(context.db, parsed.data);
  if (isDocumentRequest(request)) {
    const query = new URLSearchParams({ [ORDER_LOOKUP_NOTICE_PARAM]: ORDER_LOOKUP_SENT });
    return redirect(`${new URL(request.url).pathname}?${query}#${ORDER_LOOKUP_ANCHOR}`, 303);
  }
  return successWithToast(request, ORDER_LOOKUP_MESSAGES.sent);
}

export const headers = privatePageHeaders;

export const handle = PRIVATE_PAGE_HANDLE;

export function meta({ matches, location }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: 'Histórico de compras',
    path: location.pathname,
    noindex: true,
  });
}

const STATUS_STYLES: Record<OrderStatus, string> = {
  pending: 'bg-yellow-100 text-yellow-900',
  confirmed: 'bg-blue-100 text-blue-900',
  shipped: 'bg-purple-100 text-purple-900',
  delivered: 'bg-green-100 text-green-900',
  cancelled: 'bg-red-100 text-red-900',
};

export default function OrderHistoryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { orders } = loaderData;
  const refused = actionData && 'toast' in actionData ? actionData : undefined;
  return (
    <div className="section-spacing mx-auto max-w-3xl px-4">
      <h1 className="mb-2 text-2xl sm:text-3xl">Histórico de compras</h1>
      <p className="mb-6 text-sm">
        Os pedidos feitos neste navegador. Para ver os de todos os seus aparelhos,{' '}
        <Link to="/conta" className="text-link underline">
          entre em Minha conta
        </Link>{' '}
        com o seu e-mail.
      </p>
      {orders.length === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-card border border-card-border bg-card px-4 py-12 text-center">
          <p className="text-lg">Nenhum pedido encontrado.</p>
          <Link to="/products" className="btn btn-primary">
            Ver produtos
          </Link>
        </div>
      ) : (
        <ul className="flex flex-col gap-4">
          {orders.map((order) => (
            <li
              key={order.id}
              data-testid="order-card"
              className="flex flex-col gap-3 rounded-card border border-card-border bg-card p-4"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <h2 className="text-lg font-semibold">Pedido {order.number}</h2>
                  <p className="text-sm">Feito em {order.placedAt}</p>
                  <p className="text-sm">Pago em {order.paidAt ?? '—'}</p>
                </div>
                <span
                  data-testid="order-status"
                  className={`rounded-full px-3 py-1 text-sm font-semibold ${STATUS_STYLES[order.status]}`}
                >
                  {SHOPPER_STATUS_LABELS[order.status]}
                </span>
              </div>
              <p className="text-sm font-semibold">
                {DELIVERY_LINES[order.status]}
                {order.trackingCode ? (
                  <>
                    {' — código de rastreio '}
                    <TrackingCode
                      code={order.trackingCode}
                      link={trackingLink(order.trackingCode)}
                    />
                  </>
                ) : null}
              </p>
              <ul className="flex flex-col gap-2">
                {order.lines.map((line, index) => (
                  <OrderLine key={index} line={line} look="store" srcSet={mediaSrcSet} compact />
                ))}
              </ul>
              <div className="flex flex-wrap items-center justify-between gap-3 border-t border-card-border pt-3">
                <div>
                  {order.shipping ? (
                    <p className="text-sm" data-testid="order-shipping">
                      {order.shipping.label}:{' '}
                      {order.shipping.cents === 0 ? (
                        'Grátis'
                      ) : (
                        <Money cents={order.shipping.cents} />
                      )}
                    </p>
                  ) : null}
                  {order.adjustments.map((adjustment) => (
                    <p key={adjustment.label} className="text-sm" data-testid="order-discount">
                      {adjustment.label}: <SignedMoney cents={adjustment.cents} />
                    </p>
                  ))}
                  <p className="font-bold">
                    Total: <Money cents={order.totalCents} />
                  </p>
                </div>
                {order.status === 'pending' ? (
                  <Form method="post" action={`/order-confirmation?orderId=${order.id}`}>
                    <input type="hidden" name="orderId" value={order.id} />
                    <button type="submit" name="intent" value="pay" className="btn btn-success">
                      Pagar agora
                    </button>
                  </Form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <OrderLookupForm refused={refused} />
    </div>
  );
}
