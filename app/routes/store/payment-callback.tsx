import { useEffect } from 'react';
import { data, Link, useNavigate } from 'react-router';

import { seoContext } from '~/components/store/store-data';
import { refreshPayment } from '~/flows/order-payment.server';
import { privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { isUuid } from '~/lib/uuid';
import { findOrderFor, moveOrderKeyToCookie, orderAccess } from '~/modules/orders/index.server';

import type { Route } from './+types/payment-callback';

/** SPEC §8's texts for each outcome. */
const MESSAGES = {
  invalid: 'Informações de pagamento inválidas',
  error: 'Erro ao verificar status do pagamento',
  failed: 'Pagamento rejeitado. Tente novamente.',
  pending: 'Pagamento pendente. Aguarde a confirmação.',
  success: 'Pagamento aprovado com sucesso!',
} as const;
type Outcome = keyof typeof MESSAGES;

const REDIRECT_SECONDS = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const moved = await moveOrderKeyToCookie(request);
  if (moved) throw moved;
  const url = new URL(request.url);
  const orderId = url.searchParams.get('orderId') ?? '';
  // Ours when the shopper comes from our own pages; Mercado Pago's checkout sends its own
  // parameters instead, and the order's payment is read from the provider either way.
  const paymentId = url.searchParams.get('paymentId');
  if (!isUuid(orderId) || (paymentId !== null && (!paymentId || paymentId.length > 200))) {
    return data({ outcome: 'invalid' as Outcome, next: '/cart' }, 400);
  }
  // The browser that placed the order, or one that opened its e-mailed link and paid from there.
  const found = await findOrderFor(context.db, orderId, await orderAccess(request, orderId));
  if (!found || (paymentId !== null && found.payment.id !== paymentId)) {
    return data({ outcome: 'invalid' as Outcome, next: '/cart' }, 404);
  }
  const { order, error } = await refreshPayment(
    context.db,
    await context.payments(),
    found,
    context.orderEvents,
  );
  // A card refused on the provider's page leaves the order waiting: its words come from the
  // return's own `status`, which changes nothing (the order is read from the provider).
  const refusedThere = order.payment.url !== null && url.searchParams.get('status') === 'rejected';
  const outcome: Outcome =
    order.status === 'cancelled' || (order.status === 'pending' && refusedThere)
      ? 'failed'
      : order.status !== 'pending'
        ? 'success'
        : error
          ? 'error'
          : 'pending';
  const next =
    outcome === 'success'
      ? `/thank-you?${new URLSearchParams({ orderId, paymentId: order.payment.id ?? '', verified: 'true' })}`
      : // An order paid on the provider's page can be paid from its own page again.
        order.status === 'pending' && order.payment.url
        ? `/order-confirmation?${new URLSearchParams({ orderId })}`
        : '/cart';
  return { outcome, next };
}

export const headers = privatePageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: 'Verificando pagamento',
    path: '/payment-callback',
    noindex: true,
  });
}

export default function PaymentCallbackPage({ loaderData }: Route.ComponentProps) {
  const { outcome, next } = loaderData;
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => void navigate(next), REDIRECT_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [navigate, next]);
  return (
    <div className="section-spacing mx-auto flex max-w-xl flex-col items-center gap-4 px-4 text-center">
      {/* Without JavaScript the browser moves on by itself after the same delay. */}
      <noscript>
        <meta httpEquiv="refresh" content={`${REDIRECT_SECONDS};url=${next}`} />
      </noscript>
      <h1 className="text-2xl">Pagamento</h1>
      <p role="status" data-outcome={outcome} className="text-lg font-semibold">
        {MESSAGES[outcome]}
      </p>
      <p className="text-sm">Você será redirecionado em {REDIRECT_SECONDS} segundos.</p>
      <Link to={next} className="btn btn-primary">
        Continuar
      </Link>
    </div>
  );
}
