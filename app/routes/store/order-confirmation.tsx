import { data, Link, redirect } from 'react-router';
import { z } from 'zod';

import {
  confirmationPath,
  orderQuery,
  PAYMENT_MISSING,
  PayButton,
  PixPanel,
  SandboxPanel,
  useNow,
  usePaymentPolling,
} from '~/components/store/order-payment';
import { OrderSummary } from '~/components/store/order-summary';
import { seoContext, useSettings } from '~/components/store/store-data';
import { TestModeNotice } from '~/components/store/test-mode-notice';
import { Money, SignedMoney } from '~/components/ui/money';
import { loadOrderConfirmation, payOrderAgain } from '~/flows/order-confirmation-page.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { refuseForm } from '~/lib/toast.server';
import { formatDate } from '~/lib/date-format';
import { PRIVATE_PAGE_HANDLE, privatePageHeaders } from '~/lib/private-pages';
import { seoMeta } from '~/lib/seo';
import { moveOrderKeyToCookie, orderAccess } from '~/modules/orders/index.server';
import { installmentOffer } from '~/modules/pricing';

import type { Route } from './+types/order-confirmation';

export async function loader({ request, context }: Route.LoaderArgs) {
  const moved = await moveOrderKeyToCookie(request);
  if (moved) throw moved;
  const page = await loadOrderConfirmation(context, request);
  if (page.kind === 'missing') return data(page, 404);
  if (page.kind === 'paid') {
    const query = orderQuery(page.orderId, { paymentId: page.paymentId, verified: 'true' });
    throw redirect(`/thank-you?${query}`);
  }
  return page;
}

const actionSchema = z.object({
  intent: z.enum(['pay'], { error: 'Ação inválida.' }),
  orderId: z.string({ error: PAYMENT_MISSING }).max(64, { error: PAYMENT_MISSING }),
  chave: z.string().max(64).optional(),
});

/**
 * 'Pagar agora' / 'Gerar novo PIX'; the sandbox tester's buttons post to their own resource
 * route (sandbox-payment.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, actionSchema);
  if (!parsed.ok) return refuseForm(parsed.error);
  const { orderId, chave } = parsed.data;
  const access = await orderAccess(request, orderId, chave);
  const paid = await payOrderAgain(context, orderId, access);
  switch (paid.kind) {
    case 'missing':
      return refuseForm(PAYMENT_MISSING, {}, 404);
    case 'busy':
      return refuseForm(paid.message, {}, 429, {
        'Retry-After': String(paid.retryAfterSeconds),
      });
    case 'refused':
      return refuseForm(paid.error, {}, 409);
    case 'payment':
      if (paid.paymentUrl) return redirect(paid.paymentUrl, 303);
      return redirect(confirmationPath(paid.orderId, paid.paymentId), 303);
  }
}

export const headers = privatePageHeaders;

export const handle = PRIVATE_PAGE_HANDLE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: 'Pagamento do pedido',
    path: '/order-confirmation',
    noindex: true,
  });
}

export default function OrderConfirmationPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = loaderData.kind === 'order' && loaderData.order.status === 'pending';
  usePaymentPolling(pending);
  const now = useNow(loaderData.kind === 'order' ? loaderData.renderedAt : 0);

  if (loaderData.kind === 'missing') {
    return (
      <div className="section-spacing mx-auto max-w-store px-4 text-center">
        <h1 className="mb-4 text-2xl">Pagamento</h1>
        <p role="alert" className="mb-6">
          {PAYMENT_MISSING}
        </p>
        <Link to="/historico" className="btn btn-primary">
          Ver meus pedidos
        </Link>
      </div>
    );
  }

  const { order, qrSvg, testMode } = loaderData;
  const expiresAt = order.expiresAt ? Date.parse(order.expiresAt) : null;
  const expired = expiresAt !== null && expiresAt <= now;
  const canPay = loaderData.live && !expired && order.pixCode;
  const payOffsite = loaderData.live && !expired && !order.pixCode ? order.paymentUrl : null;
  // The sandbox's card or boleto: no provider's page to go to, the tester settles it here.
  const sandboxPays = testMode && loaderData.live && !expired && !order.pixCode && !payOffsite;

  return (
    <div className="section-spacing mx-auto flex max-w-xl flex-col gap-6 px-4">
      <div>
        <h1 className="text-2xl sm:text-3xl">Pedido {order.number}</h1>
        <p className="mt-1 text-lg">
          Valor: <Money cents={order.totalCents} className="font-bold" />
        </p>
        {order.shipping ? (
          <p className="text-sm" data-testid="confirmation-shipping">
            {order.shipping.label}:{' '}
            {order.shipping.cents === 0 ? 'Grátis' : <Money cents={order.shipping.cents} />}
          </p>
        ) : null}
        {order.adjustments.map((adjustment) => (
          <p key={adjustment.label} className="text-sm" data-testid="confirmation-discount">
            {adjustment.label} já aplicado:{' '}
            <SignedMoney cents={adjustment.cents} className="font-semibold" />
          </p>
        ))}
      </div>
      {testMode ? <TestModeNotice /> : null}
      {actionData && 'toast' in actionData ? (
        <p role="alert" className="rounded-card border-l-4 border-danger bg-card p-4 font-semibold">
          {actionData.toast.message}
        </p>
      ) : null}

      {order.status === 'cancelled' ? (
        <section className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4">
          <h2 className="text-xl">Pedido cancelado</h2>
          <p>
            {order.cancelReason === 'rejected'
              ? 'Pagamento rejeitado. Tente novamente.'
              : 'O prazo para pagamento terminou e o pedido foi cancelado.'}
          </p>
          <Link to="/products" className="btn btn-primary">
            Voltar à loja
          </Link>
        </section>
      ) : payOffsite ? (
        <OffsitePayment
          url={payOffsite}
          boletoIssued={order.boletoIssued}
          method={order.paymentMethod}
          expiresAt={order.expiresAt}
          statusError={loaderData.statusError}
        />
      ) : sandboxPays ? (
        <SandboxCheckout
          method={order.paymentMethod}
          totalCents={order.totalCents}
          expiresAt={order.expiresAt}
        />
      ) : canPay ? (
        <PixPanel
          pixCode={order.pixCode!}
          qrSvg={qrSvg}
          expiresAt={order.expiresAt!}
          remainingMs={expiresAt! - now}
          statusError={loaderData.statusError}
          checkPath={confirmationPath(order.id, order.paymentId)}
        />
      ) : (
        <section className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4">
          <h2 className="text-xl">
            {loaderData.paymentFailed ? 'Pagamento não gerado' : 'O prazo deste PIX terminou'}
          </h2>
          <p>
            {loaderData.paymentFailed
              ? 'Erro ao finalizar pedido: não foi possível gerar o pagamento agora. Seu pedido foi registrado; tente de novo.'
              : 'Gere um novo código PIX para pagar este pedido.'}
          </p>
          <PayButton
            orderId={order.id}
            label={loaderData.paymentFailed ? 'Pagar agora' : 'Gerar novo PIX'}
          />
        </section>
      )}

      {testMode && (canPay || sandboxPays) ? (
        <SandboxPanel
          orderId={order.id}
          cardTotalCents={order.paymentMethod === 'credit_card' ? order.totalCents : null}
        />
      ) : null}
      <OrderSummary
        title="Itens do pedido"
        lines={order.lines}
        subtotalCents={order.subtotalCents}
        shippingCents={order.shippingCents}
        shippingLabel={order.shippingLabel}
        adjustments={order.adjustments}
        totalCents={order.totalCents}
      />
      <section
        className="flex flex-col gap-2 rounded-card border border-card-border bg-card p-4"
        data-testid="confirmation-address"
      >
        <h2 className="text-xl">Entrega</h2>
        <p>{order.customerName}</p>
        <p>{order.address}</p>
      </section>
      <Link to="/historico" className="text-center text-link underline">
        Ver meus pedidos
      </Link>
    </div>
  );
}

/**
 * An order paid on the provider's pages: the way back there (the checkout where the card is
 * typed, or the boleto issued), while this page keeps asking how the payment stands.
 */
function OffsitePayment({
  url,
  boletoIssued,
  method,
  expiresAt,
  statusError,
}: {
  url: string;
  boletoIssued: boolean;
  method: string;
  expiresAt: string | null;
  statusError: string | null;
}) {
  const settings = useSettings();
  const until = expiresAt ? formatDate(new Date(expiresAt), settings.timezone, 'long') : null;
  return (
    <section className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4">
      <h2 className="text-xl">{boletoIssued ? 'Boleto gerado' : 'Pagamento no Mercado Pago'}</h2>
      <p>
        {boletoIssued
          ? 'Pague o boleto no app do seu banco ou em uma lotérica. A confirmação chega em até dois dias úteis depois do pagamento.'
          : method === 'boleto'
            ? 'Gere o boleto na página do Mercado Pago para pagar este pedido.'
            : 'Pague com seu cartão na página segura do Mercado Pago; ao terminar, você volta para a loja.'}
      </p>
      {until ? (
        <p className="text-sm" data-testid="offsite-deadline">
          O pedido fica reservado até {until}.
        </p>
      ) : null}
      {statusError ? (
        <p role="status" className="text-sm">
          {statusError}
        </p>
      ) : null}
      <a href={url} className="btn btn-success" data-testid="offsite-payment">
        {boletoIssued ? 'Abrir boleto' : 'Ir para o Mercado Pago'}
      </a>
    </section>
  );
}

/**
 * The sandbox's card or boleto: what a real provider would do in its place (its own page for the
 * card and the instalments, a boleto to pay at a bank), and the deadline, while the tester below
 * settles it without any card or boleto.
 */
function SandboxCheckout({
  method,
  totalCents,
  expiresAt,
}: {
  method: string;
  totalCents: number;
  expiresAt: string | null;
}) {
  const settings = useSettings();
  const most = installmentOffer(totalCents, settings)?.count ?? 1;
  const until = expiresAt ? formatDate(new Date(expiresAt), settings.timezone, 'long') : null;
  const boleto = method === 'boleto';
  return (
    <section
      className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4"
      data-testid="sandbox-checkout"
    >
      <h2 className="text-xl">{boleto ? 'Pagamento com boleto' : 'Pagamento com cartão'}</h2>
      <p>
        {boleto
          ? 'Com um provedor de pagamento real, o cliente recebe aqui o boleto para pagar no app do banco ou em uma lotérica, e o pedido é confirmado quando o banco compensa o pagamento. No modo de teste nenhum boleto é emitido.'
          : `Com um provedor de pagamento real, o cliente digita o cartão na página segura do provedor e escolhe as parcelas${most > 1 ? ` (até ${most}x)` : ''}. No modo de teste nenhum cartão é pedido.`}
      </p>
      {until ? (
        <p className="text-sm" data-testid="sandbox-deadline">
          O pedido fica reservado até {until}.
        </p>
      ) : null}
    </section>
  );
}
