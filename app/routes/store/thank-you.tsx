import { useEffect, useState, useSyncExternalStore } from 'react';
import { data, Link, useRevalidator } from 'react-router';

import { OrderSummary } from '~/components/store/order-summary';
import { seoContext, useSettings } from '~/components/store/store-data';
import { TrackingCode } from '~/components/ui/tracking-code';
import { loadThankYouPage } from '~/flows/thank-you-page.server';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { trackingLink } from '~/modules/orders';
import { moveOrderKeyToCookie } from '~/modules/orders/index.server';
import { trackPurchase } from '~/modules/tracking';

import type { Route } from './+types/thank-you';

const NOT_FOUND = 'Pedido não encontrado';
const RETRIES = 5;

export async function loader({ request, context }: Route.LoaderArgs) {
  const moved = await moveOrderKeyToCookie(request);
  if (moved) throw moved;
  const page = await loadThankYouPage(context, request, await context.settings.get());
  if (!page) return data({ kind: 'missing' as const }, 404);
  return { kind: 'order' as const, ...page };
}

export const headers = privatePageHeaders;

export const handle = PRIVATE_PAGE_HANDLE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), { title: 'Obrigado!', path: '/thank-you', noindex: true });
}

const noSubscription = () => () => {};

/**
 * A just-placed order may not be readable yet (a replica behind): look again, 5 × 1 s. Only once
 * the page runs in the browser: the server's answer (and a page without JavaScript) says
 * 'Pedido não encontrado' at once.
 */
function useRetryWhileMissing(missing: boolean) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const revalidator = useRevalidator();
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (!missing || tries >= RETRIES) return;
    const timer = setTimeout(() => {
      setTries(tries + 1);
      void revalidator.revalidate();
    }, 1_000);
    return () => clearTimeout(timer);
  }, [missing, revalidator, tries]);
  return hydrated && missing && tries < RETRIES;
}

/** Fires the Purchase event once per order in this browser, only for a paid order. */
function usePurchaseEvent(loaderData: Route.ComponentProps['loaderData']) {
  const settings = useSettings();
  useEffect(() => {
    if (loaderData.kind !== 'order' || !loaderData.paid) return;
    const { order } = loaderData;
    const key = `vitrine_purchase_${order.id}`;
    try {
      if (localStorage.getItem(key)) return;
      localStorage.setItem(key, '1');
    } catch {
      // Storage refused (private mode): still report once for this page view.
    }
    trackPurchase(settings, {
      id: order.id,
      totalCents: order.totalCents,
      items: order.lines.map((line) => ({
        id: line.productId ?? order.id,
        name: line.name,
        priceCents: line.unitPriceCents,
        quantity: line.quantity,
      })),
    });
  }, [loaderData, settings]);
}

export default function ThankYouPage({ loaderData }: Route.ComponentProps) {
  const settings = useSettings();
  const retrying = useRetryWhileMissing(loaderData.kind === 'missing');
  usePurchaseEvent(loaderData);

  if (loaderData.kind === 'missing') {
    return (
      <div className="section-spacing mx-auto max-w-store px-4 text-center">
        <p role="status" className="mb-6 text-lg">
          {retrying ? settings.loading_message : NOT_FOUND}
        </p>
        {retrying ? null : (
          <Link to="/historico" className="btn btn-primary">
            Ver meus pedidos
          </Link>
        )}
      </div>
    );
  }

  const { order, paid, delivery } = loaderData;
  return (
    <div className="section-spacing mx-auto grid max-w-store items-start gap-6 px-4 lg:grid-cols-[1fr_24rem]">
      <div className="flex flex-col gap-6">
        <div>
          <h1 className="text-2xl sm:text-3xl">
            {paid ? 'Obrigado pela sua compra!' : 'Pedido recebido'}
          </h1>
          <p className="mt-2 text-lg">
            Pedido <strong>{order.number}</strong>
            {paid ? ' — pagamento confirmado.' : ' — aguardando a confirmação do pagamento.'}
          </p>
        </div>
        <section className="flex flex-col gap-2 rounded-card border border-card-border bg-card p-4">
          <h2 className="text-xl">Entrega</h2>
          <p>{order.customerName}</p>
          <p>{order.address}</p>
          <p data-testid="delivery-estimate">
            {delivery
              ? `Previsão de entrega: até ${delivery} (${settings.estimated_delivery_days} dias úteis após o pagamento).`
              : `Entrega em até ${settings.estimated_delivery_days} dias úteis após a confirmação do pagamento.`}
          </p>
          {order.trackingCode ? (
            <p data-testid="tracking-code">
              Código de rastreio:{' '}
              <TrackingCode code={order.trackingCode} link={trackingLink(order.trackingCode)} />
            </p>
          ) : null}
        </section>
        <section className="flex flex-col gap-2 rounded-card border border-card-border bg-card p-4">
          <h2 className="text-xl">Próximos passos</h2>
          <ol className="list-decimal pl-5">
            <li>Enviamos a confirmação para {order.email}.</li>
            <li>Separamos e embalamos seus produtos.</li>
            <li>Você recebe o código de rastreio quando o pedido for enviado.</li>
          </ol>
        </section>
        <div className="flex flex-wrap gap-3">
          {paid ? null : (
            <Link
              to={`/order-confirmation?${new URLSearchParams({ orderId: order.id })}`}
              className="btn btn-success"
            >
              Pagar agora
            </Link>
          )}
          <Link to="/historico" className="btn btn-outline">
            Ver meus pedidos
          </Link>
          <Link to="/products" className="btn btn-primary">
            {settings.continue_shopping_text}
          </Link>
        </div>
      </div>
      <OrderSummary
        title="Itens do pedido"
        lines={order.lines.map((line) => ({ ...line, totalCents: line.totalCents }))}
        subtotalCents={order.subtotalCents}
        shippingCents={order.shippingCents}
        shippingLabel={order.shippingLabel}
        adjustments={order.adjustments}
        totalCents={order.totalCents}
      />
    </div>
  );
}
