import { useEffect, useState } from 'react';
import { Form, useFetcher, useNavigation, useRevalidator } from 'react-router';

import type { FormReply } from '~/lib/form';
import { formatCents } from '~/lib/money';
import { installmentOffer } from '~/modules/pricing';

import { CopyCode } from './copy-code';
import { useSettings } from './store-data';

export const PAYMENT_MISSING = 'Não foi possível encontrar os dados de pagamento';
/** Where the sandbox's approve, reject and expire buttons post (routes/store/sandbox-payment.ts). */
export const SANDBOX_PAYMENT_PATH = '/order-confirmation/sandbox';
export const SANDBOX_MESSAGES = {
  testModeOnly: 'Disponível apenas no modo de teste.',
  installments: (most: number) =>
    most === 1 ? 'Este pedido é pago à vista.' : `Escolha de 1 a ${most} parcelas.`,
} as const;
const POLL_MS = 5_000;

/** An order page's query: the order and what else it is given, never the order's key. */
export function orderQuery(orderId: string, extra: Record<string, string | null | undefined>) {
  const query = new URLSearchParams({ orderId });
  for (const [name, value] of Object.entries(extra)) if (value) query.set(name, value);
  return query;
}

export function confirmationPath(orderId: string, paymentId?: string | null) {
  return `/order-confirmation?${orderQuery(orderId, { paymentId })}`;
}

/** Asks our server again every 5 s while the page is in view; the loader moves on when paid. */
export function usePaymentPolling(active: boolean) {
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

export function useNow(renderedAt: number): number {
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

/** 'Pagar agora' / 'Gerar novo PIX': the confirmation page's own action. */
export function PayButton({ orderId, label }: { orderId: string; label: string }) {
  const busy = useNavigation().state === 'submitting';
  return (
    <Form method="post" action={confirmationPath(orderId)}>
      <input type="hidden" name="orderId" value={orderId} />
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

/**
 * A card payment's instalments, as a provider's page offers them: as many as the store allows on
 * the total (what checkout promised), nothing to choose when that is one.
 */
function InstallmentsChoice({ totalCents }: { totalCents: number }) {
  const settings = useSettings();
  const most = installmentOffer(totalCents, settings)?.count ?? 1;
  if (most === 1) return null;
  const choices = Array.from({ length: most }, (_, index) => index + 1);
  return (
    <label className="flex flex-col gap-1">
      <span>Parcelas</span>
      <select name="parcelas" defaultValue="1" className="field">
        {choices.map((count) => (
          <option key={count} value={count}>
            {count === 1
              ? `À vista: ${formatCents(totalCents)}`
              : settings.installments_interest_free
                ? `${count}x de ${formatCents(Math.floor(totalCents / count))} sem juros`
                : `${count}x com os juros do cartão`}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The sandbox tester's buttons. They post to their own resource route, which sends the browser
 * back to this page; a refusal comes back to the fetcher and is shown here. A card's approval
 * carries the instalments chosen, as the provider's page would have asked.
 */
export function SandboxPanel({
  orderId,
  cardTotalCents,
}: {
  orderId: string;
  /** A card payment's total, to pay in instalments; null for PIX and boleto. */
  cardTotalCents: number | null;
}) {
  const fetcher = useFetcher<FormReply>();
  return (
    <fetcher.Form
      method="post"
      action={SANDBOX_PAYMENT_PATH}
      className="flex flex-col gap-2 rounded-card border-2 border-dashed border-accent p-4"
    >
      <p className="font-semibold">Modo de teste: simule a resposta do banco.</p>
      {fetcher.data && !fetcher.data.ok ? (
        <p role="alert" className="font-semibold">
          {fetcher.data.toast.message}
        </p>
      ) : null}
      <input type="hidden" name="orderId" value={orderId} />
      {cardTotalCents === null ? null : <InstallmentsChoice totalCents={cardTotalCents} />}
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
    </fetcher.Form>
  );
}

/**
 * The live PIX: its countdown, the copy-and-paste code, the QR Code and the payment's status. A
 * phone's shopper pays from the phone, in the bank's app: the copy button comes first and the QR
 * after it; at a desktop's width the QR, read with a phone, comes first.
 */
export function PixPanel({
  pixCode,
  qrSvg,
  expiresAt,
  remainingMs,
  statusError,
  checkPath,
}: {
  pixCode: string;
  qrSvg: string | null;
  expiresAt: string;
  remainingMs: number;
  statusError: string | null;
  /** The page again, for a browser without JavaScript (it does not poll). */
  checkPath: string;
}) {
  return (
    <section
      aria-labelledby="pix-title"
      className="flex flex-col items-center gap-4 rounded-card border border-card-border bg-card p-4"
    >
      <h2 id="pix-title" className="text-xl">
        Pague com PIX
      </h2>
      <p data-testid="pix-countdown" aria-live="off" className="lg:order-3">
        Este código expira em{' '}
        <strong>
          <time dateTime={expiresAt}>{formatRemaining(remainingMs)}</time>
        </strong>
      </p>
      <CopyCode code={pixCode} className="lg:order-4" />
      <p className="text-center lg:order-1">
        Abra o app do seu banco, escolha pagar com PIX e leia o QR Code ou cole o código.
      </p>
      {qrSvg ? (
        <div
          role="img"
          aria-label="QR Code do PIX"
          data-testid="pix-qr"
          className="w-56 max-w-full rounded-card bg-white p-2 lg:order-2"
          // Our own SVG, drawn on the server by the qrcode library from the BR Code.
          dangerouslySetInnerHTML={{ __html: qrSvg }}
        />
      ) : null}
      <p role="status" className="text-sm lg:order-5">
        {statusError
          ? `Erro ao verificar status do pagamento: ${statusError}`
          : 'Aguardando o pagamento. Esta página se atualiza sozinha quando ele for confirmado.'}
      </p>
      <noscript>
        <a href={checkPath} className="text-link underline lg:order-5">
          Já paguei: verificar pagamento
        </a>
      </noscript>
    </section>
  );
}
