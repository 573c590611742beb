import { useEffect, useState } from 'react';
import { data, Form, Link, redirect, useNavigation, useRevalidator } from 'react-router';
import { z } from 'zod';

import { CopyCode } from '~/components/store/copy-code';
import { seoContext } from '~/components/store/store-data';
import { TestModeNotice } from '~/components/store/test-mode-notice';
import { Money } from '~/components/ui/money';
import { hasLivePayment, payOrder, refreshPayment } from '~/flows/order-payment.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { seoMeta } from '~/lib/seo';
import { pixDiscountLabel } from '~/modules/orders';
import {
  findOrderFor,
  getRequestedOrder,
  readOrderToken,
  requestedKey,
} from '~/modules/orders/index.server';
import { pixQrSvg, setSandboxPaymentStatus } from '~/modules/payments/index.server';
import { hitRateLimit, RATE_LIMITS, waitText } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/order-confirmation';

const MISSING = 'Não foi possível encontrar os dados de pagamento';
const POLL_MS = 5_000;
const PAY_LIMITED = (seconds: number) =>
  `Muitos pedidos de pagamento em pouco tempo. Aguarde ${waitText(seconds)} e tente de novo.`;

/** The order's pages keep the e-mail link's key, for a browser that only has that. */
function orderQuery(orderId: string, extra: Record<string, string | null | undefined>) {
  const query = new URLSearchParams({ orderId });
  for (const [name, value] of Object.entries(extra)) if (value) query.set(name, value);
  return query;
}

function confirmationPath(orderId: string, paymentId?: string | null, key?: string | null) {
  return `/order-confirmation?${orderQuery(orderId, { paymentId, chave: key })}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const found = await getRequestedOrder(context.db, request);
  if (!found) return data({ kind: 'missing' as const }, 404);
  const payments = await context.payments();
  const { order, error } = await refreshPayment(context.db, payments, found, context.orderEvents);
  // Passed on only when it is this order's: the page never repeats a guessed key.
  const key = requestedKey(request) === order.accessKey ? order.accessKey : null;
  if (order.status !== 'pending' && order.status !== 'cancelled') {
    const query = orderQuery(order.id, {
      paymentId: order.payment.id,
      verified: 'true',
      chave: key,
    });
    throw redirect(`/thank-you?${query}`);
  }
  const now = new Date();
  const live = order.status === 'pending' && hasLivePayment(order, now);
  return {
    kind: 'order' as const,
    accessKey: key,
    order: {
      id: order.id,
      number: order.number,
      status: order.status,
      totalCents: order.totalCents,
      discountLabel: pixDiscountLabel(order.subtotalCents, order.discountCents),
      discountCents: order.discountCents,
      cancelReason: order.cancelReason,
      paymentId: order.payment.id,
      paymentStatus: order.payment.status,
      pixCode: live ? order.payment.pixCode : null,
      expiresAt: live ? (order.payment.expiresAt?.toISOString() ?? null) : null,
    },
    live,
    qrSvg: live && order.payment.pixCode ? await pixQrSvg(order.payment.pixCode) : null,
    testMode: !!payments?.testMode && order.payment.provider === payments.name,
    paymentFailed: !order.payment.id,
    statusError: error ?? null,
    renderedAt: now.getTime(),
  };
}

const actionSchema = z.object({
  intent: z.enum(['pay', 'approve', 'reject', 'expire'], { error: 'Ação inválida.' }),
  orderId: z.string({ error: MISSING }).max(64, { error: MISSING }),
  chave: z.string().max(64).optional(),
});

const SANDBOX_STATUS = { approve: 'approved', reject: 'rejected', expire: 'expired' } as const;

/** 'Pagar Agora' / 'Gerar novo PIX', and the sandbox tester's approve, reject and expire. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, actionSchema);
  if (!parsed.ok) return data({ error: parsed.error }, 400);
  const { intent, orderId, chave } = parsed.data;
  const order = await findOrderFor(context.db, orderId, {
    token: await readOrderToken(request),
    key: chave,
  });
  if (!order) return data({ error: MISSING }, 404);
  const key = chave === order.accessKey ? chave : null;
  const payments = await context.payments();

  if (intent === 'pay') {
    // Each may ask the payment provider for a new payment.
    const limited = await hitRateLimit(context.db, RATE_LIMITS.newPayment, {
      address: context.clientIp,
    });
    if (!limited.allowed) {
      return data(
        { error: PAY_LIMITED(limited.retryAfterSeconds) },
        { status: 429, headers: { 'Retry-After': String(limited.retryAfterSeconds) } },
      );
    }
    const payment = await payOrder(context.db, payments, order.id);
    if (!payment.ok) return data({ error: payment.error }, 409);
    return redirect(confirmationPath(order.id, payment.paymentId, key), 303);
  }
  // Only while the sandbox is the provider: a demo made live takes no pretend payment.
  const sandbox = payments?.testMode && order.payment.provider === payments.name;
  if (!sandbox || !order.payment.id) {
    return data({ error: 'Disponível apenas no modo de teste.' }, 403);
  }
  await setSandboxPaymentStatus(context.db, order.payment.id, SANDBOX_STATUS[intent]);
  await refreshPayment(context.db, payments, order, context.orderEvents);
  return redirect(confirmationPath(order.id, order.payment.id, key), 303);
}

/** The 429's Retry-After reaches the browser too. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter ? { 'Retry-After': retryAfter } : loaderHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: 'Pagamento do pedido',
    path: '/order-confirmation',
    noindex: true,
  });
}

/** Asks our server again every 5 s while the page is in view; the loader moves on when paid. */
function usePaymentPolling(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle') {
        void revalidator.revalidate();
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}

function useNow(renderedAt: number): number {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function formatRemaining(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const pad = (value: number) => String(value).padStart(2, '0');
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const clock = `${pad(minutes)}:${pad(seconds % 60)}`;
  return hours > 0 ? `${hours}:${clock}` : clock;
}

function OrderFields({ orderId, linkKey }: { orderId: string; linkKey: string | null }) {
  return (
    <>
      <input type="hidden" name="orderId" value={orderId} />
      {linkKey ? <input type="hidden" name="chave" value={linkKey} /> : null}
    </>
  );
}

function PayButton({
  orderId,
  linkKey,
  label,
}: {
  orderId: string;
  linkKey: string | null;
  label: string;
}) {
  const busy = useNavigation().state === 'submitting';
  return (
    <Form method="post" action={confirmationPath(orderId, null, linkKey)}>
      <OrderFields orderId={orderId} linkKey={linkKey} />
      <button
        type="submit"
        name="intent"
        value="pay"
        className="btn btn-success w-full"
        disabled={busy}
      >
        {busy ? 'Gerando pagamento...' : label}
      </button>
    </Form>
  );
}

function SandboxPanel({ orderId, linkKey }: { orderId: string; linkKey: string | null }) {
  return (
    <Form
      method="post"
      action={confirmationPath(orderId, null, linkKey)}
      className="flex flex-col gap-2 rounded-card border-2 border-dashed border-accent p-4"
    >
      <p className="font-semibold">Modo de teste: simule a resposta do banco.</p>
      <OrderFields orderId={orderId} linkKey={linkKey} />
      <div className="grid grid-cols-3 gap-2">
        <button type="submit" name="intent" value="approve" className="btn btn-success">
          Aprovar
        </button>
        <button type="submit" name="intent" value="reject" className="btn btn-danger">
          Recusar
        </button>
        <button type="submit" name="intent" value="expire" className="btn btn-outline">
          Expirar
        </button>
      </div>
    </Form>
  );
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
          {MISSING}
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

  return (
    <div className="section-spacing mx-auto flex max-w-xl flex-col gap-6 px-4">
      <div>
        <h1 className="text-2xl sm:text-3xl">Pedido #{order.number}</h1>
        <p className="mt-1 text-lg">
          Valor: <Money cents={order.totalCents} className="font-bold" />
        </p>
        {order.discountCents > 0 ? (
          <p className="text-sm" data-testid="confirmation-discount">
            {order.discountLabel} já aplicado:{' '}
            <span className="whitespace-nowrap font-semibold">
              − <Money cents={order.discountCents} />
            </span>
          </p>
        ) : null}
      </div>
      {testMode ? <TestModeNotice /> : null}
      {actionData && 'error' in actionData ? (
        <p role="alert" className="rounded-card border-l-4 border-danger bg-card p-4 font-semibold">
          {actionData.error}
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
      ) : canPay ? (
        <section
          aria-labelledby="pix-title"
          className="flex flex-col items-center gap-4 rounded-card border border-card-border bg-card p-4"
        >
          <h2 id="pix-title" className="text-xl">
            Pague com PIX
          </h2>
          <p className="text-center">
            Abra o app do seu banco, escolha pagar com PIX e leia o QR Code ou cole o código.
          </p>
          {qrSvg ? (
            <div
              role="img"
              aria-label="QR Code do PIX"
              data-testid="pix-qr"
              className="w-56 max-w-full rounded-card bg-white p-2"
              // Our own SVG, drawn on the server by the qrcode library from the BR Code.
              dangerouslySetInnerHTML={{ __html: qrSvg }}
            />
          ) : null}
          <CopyCode code={order.pixCode!} />
          <p data-testid="pix-countdown" aria-live="off">
            Este código expira em{' '}
            <strong>
              <time dateTime={order.expiresAt ?? undefined}>
                {formatRemaining(expiresAt! - now)}
              </time>
            </strong>
          </p>
          <p role="status" className="text-sm">
            {loaderData.statusError
              ? `Erro ao verificar status do pagamento: ${loaderData.statusError}`
              : 'Aguardando o pagamento. Esta página se atualiza sozinha quando ele for confirmado.'}
          </p>
          <noscript>
            <a
              href={confirmationPath(order.id, order.paymentId, loaderData.accessKey)}
              className="text-link underline"
            >
              Já paguei: verificar pagamento
            </a>
          </noscript>
        </section>
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
            linkKey={loaderData.accessKey}
            label={loaderData.paymentFailed ? 'Pagar Agora' : 'Gerar novo PIX'}
          />
        </section>
      )}

      {testMode && canPay ? (
        <SandboxPanel orderId={order.id} linkKey={loaderData.accessKey} />
      ) : null}
      <Link to="/historico" className="text-center text-link underline">
        Ver meus pedidos
      </Link>
    </div>
  );
}
