import { useId, useRef } from 'react';
import { useFetcher } from 'react-router';

import { Money, SignedMoney } from '~/components/ui/money';
import { OrderLine } from '~/components/ui/order-line';
import { TrackingCode } from '~/components/ui/tracking-code';
import { formatDate, formatDateTime } from '~/lib/date-format';
import { formatCents } from '~/lib/money';
import { countOf } from '~/lib/plural';
import type { Toast } from '~/lib/toast';
import { mediaSrcSet } from '~/modules/media';
import {
  blingInvoiceLink,
  formatAccessKey,
  INVOICE_STATE_LABELS,
  type ErpOrderView,
} from '~/modules/erp';
import {
  canCancelOrder,
  canDeleteOrder,
  ORDER_TRANSITIONS,
  trackingLink,
  wasPaid,
  type OrderEvent,
} from '~/modules/orders';
import {
  ADMIN_STATUS_LABELS,
  adminStatusWord,
  CANCEL_REASON_LABELS,
  displayCpf,
  displayPhone,
  EVENT_KIND_LABELS,
  NOTE_MAX_LENGTH,
  orderNoteFormSchema,
  orderStatusFormSchema,
  orderTrackingFormSchema,
  paymentBrandLabel,
  paymentMethodLabel,
  PAYMENT_PROVIDER_LABELS,
  PAYMENT_STATUS_LABELS,
  TRANSITION_LABELS,
  type AdminOrderDetail,
} from '~/modules/orders/index.admin';
import type { PaymentDetails } from '~/modules/payments';
import { APPROXIMATE_SHIPPING } from '~/modules/shipping';

import { ADMIN_FORM } from './form-look';
import { FormField, SubmitButton } from '~/components/ui/form';
import { ConfirmDialog } from './confirm-dialog';
import { CancelOrderDialog, DELETE_ORDER_QUESTION } from './order-list';
import { OrderStatusBadge } from './order-status-badge';
import { useToastFrom } from './toaster';
import { useEachAnswer } from '~/lib/use-each-answer';
import { useFormCheck } from '~/lib/use-form-check';
import { ownEntry } from '~/lib/lookup';

/** What the order's actions answer (a fetcher's data, or actionData without JavaScript). */
export interface OrderActionReply {
  ok: boolean;
  intent?: string;
  toast?: Toast;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

interface OrderDetailProps {
  order: AdminOrderDetail;
  timeZone: string;
  /** Where the order's forms post: its own URL, with the list's filters. */
  actionUrl: string;
  /** Inside the list's dialog the title is an h2 naming the dialog; on its own page an h1. */
  titleId: string;
  inDialog: boolean;
  /** The answer of a form posted without JavaScript (a page of its own). */
  reply?: OrderActionReply;
  /** 'Reembolsar' is offered: the server would refund it through the provider. */
  refundable?: boolean;
  /** The store buys carrier labels (Melhor Envio): 'Gerar etiqueta' may be offered. */
  labels?: boolean;
  /** The order's sales order and NF-e at the ERP (Bling), if it went there. */
  erp?: ErpOrderView | null;
  /** Bling is connected: 'Enviar ao Bling' and 'Emitir NF-e' may be offered. */
  erpConnected?: boolean;
}

/** Everything about one order for staff, with the forms that move it along. */
export function OrderDetail({
  order,
  timeZone,
  actionUrl,
  titleId,
  inDialog,
  reply,
  refundable = false,
  labels = false,
  erp = null,
  erpConnected = false,
}: OrderDetailProps) {
  const Title = inDialog ? 'h2' : 'h1';
  const when = (date: Date) => formatDateTime(date, timeZone);
  const provider = order.payment.provider
    ? (ownEntry(PAYMENT_PROVIDER_LABELS, order.payment.provider) ?? order.payment.provider)
    : null;
  // A PIX taken through the bank's API Pix goes back as a devolução (issue 40's words).
  const pixRefund = order.payment.provider === 'pix-api';
  const refundWord = pixRefund ? 'Devolver PIX' : 'Reembolsar';
  const money = {
    status: order.status,
    paidAt: order.payment.paidAt,
    latePaymentAt: order.payment.latePaymentAt,
    paymentReview: order.payment.review,
  };
  return (
    <article className="space-y-4">
      <header className="flex flex-wrap items-center gap-3">
        <Title id={titleId} className="text-xl font-bold text-slate-900 sm:text-2xl">
          Detalhes do pedido {order.number}
        </Title>
        <OrderStatusBadge status={order.status} />
      </header>
      <p className="text-sm text-slate-600">Feito em {when(order.createdAt)}</p>

      {reply?.toast ? (
        <p
          role={reply.ok ? 'status' : 'alert'}
          className={`rounded-md px-3 py-2 text-sm ${
            reply.ok ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'
          }`}
        >
          {reply.toast.message}
        </p>
      ) : null}

      {order.payment.latePaymentAt && order.payment.status === 'approved' ? (
        <div className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">Pagamento recebido depois do cancelamento</p>
          <p>
            O cliente pagou em {when(order.payment.latePaymentAt)}, depois que o pedido foi
            cancelado.{' '}
            {refundable ? `Reembolse o cliente com '${refundWord}'` : 'Reembolse o cliente'} ou
            combine o envio com ele.
          </p>
        </div>
      ) : null}

      {order.payment.review ? (
        <div className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">Pagamento a conferir</p>
          <p>{order.payment.review}</p>
        </div>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby={`${titleId}-customer`} className="admin-card">
          <h3 id={`${titleId}-customer`} className="mb-2 font-semibold">
            Cliente
          </h3>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600">Nome</dt>
            <dd className="break-words">{order.customer.name}</dd>
            <dt className="text-slate-600">E-mail</dt>
            <dd className="break-all">
              <a href={`mailto:${order.customer.email}`} className="text-blue-800 underline">
                {order.customer.email}
              </a>
            </dd>
            <dt className="text-slate-600">Telefone</dt>
            <dd>{displayPhone(order.customer.phone)}</dd>
            <dt className="text-slate-600">CPF</dt>
            <dd>{displayCpf(order.customer.cpf)}</dd>
            <dt className="text-slate-600">Endereço</dt>
            <dd className="break-words">{order.address}</dd>
          </dl>
        </section>

        <section aria-labelledby={`${titleId}-payment`} className="admin-card">
          <h3 id={`${titleId}-payment`} className="mb-2 font-semibold">
            Pagamento
          </h3>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600">Forma</dt>
            <dd>{paymentMethodLabel(order.payment.details?.method ?? order.paymentMethod)}</dd>
            <dt className="text-slate-600">Provedor</dt>
            <dd>{provider ?? 'Pagamento ainda não gerado'}</dd>
            {order.payment.id ? (
              <>
                <dt className="text-slate-600">ID do pagamento</dt>
                <dd className="font-mono text-xs break-all">
                  <PaymentIdLink id={order.payment.id} href={order.payment.details?.panelUrl} />
                </dd>
              </>
            ) : null}
            <dt className="text-slate-600">Status</dt>
            <dd>
              {order.payment.status
                ? (ownEntry(PAYMENT_STATUS_LABELS, order.payment.status) ?? order.payment.status)
                : '—'}
            </dd>
            <dt className="text-slate-600">Pago em</dt>
            <dd>{order.payment.paidAt ? when(order.payment.paidAt) : '—'}</dd>
            {order.payment.details ? (
              <PaymentDetailRows
                details={order.payment.details}
                provider={provider ?? 'provedor'}
                timeZone={timeZone}
              />
            ) : null}
            {order.status === 'pending' && order.payment.expiresAt ? (
              <>
                <dt className="text-slate-600">Prazo do PIX</dt>
                <dd>{when(order.payment.expiresAt)}</dd>
              </>
            ) : null}
            {order.trackingCode ? (
              <>
                <dt className="text-slate-600">Rastreio</dt>
                <dd>
                  <TrackingCode
                    code={order.trackingCode}
                    link={trackingLink(order.trackingCode)}
                    className="text-blue-800"
                  />
                </dd>
              </>
            ) : null}
            {order.status === 'cancelled' && order.cancelledAt ? (
              <>
                <dt className="text-slate-600">Cancelado em</dt>
                <dd>
                  {when(order.cancelledAt)}
                  {order.cancelReason ? ` (${CANCEL_REASON_LABELS[order.cancelReason]})` : ''}
                </dd>
              </>
            ) : null}
          </dl>
          {refundable ? (
            <div className="mt-3">
              <ConfirmDialog
                title={`${refundWord} pedido ${order.number}`}
                message={
                  <p>
                    {`O cliente recebe de volta ${formatCents(order.totalCents)} pelo ${
                      provider ?? 'provedor'
                    }. `}
                    {order.status === 'cancelled'
                      ? 'O pedido já está cancelado.'
                      : 'O pedido é cancelado e o estoque devolvido.'}{' '}
                    O reembolso não pode ser desfeito.
                  </p>
                }
                confirmLabel={refundWord}
                busyLabel={pixRefund ? 'Devolvendo...' : 'Reembolsando...'}
                dismissLabel="Voltar"
                triggerLabel={refundWord}
                action={actionUrl}
                fields={{ intent: 'refund' }}
              />
            </div>
          ) : null}
        </section>
      </div>

      <ShippingSection order={order} labels={labels} actionUrl={actionUrl} titleId={titleId} />

      {erp || (erpConnected && order.payment.paidAt && order.status !== 'cancelled') ? (
        <InvoiceSection
          order={order}
          erp={erp}
          connected={erpConnected}
          actionUrl={actionUrl}
          titleId={titleId}
        />
      ) : null}

      <section aria-labelledby={`${titleId}-items`} className="admin-card">
        <h3 id={`${titleId}-items`} className="mb-2 font-semibold">
          Itens
        </h3>
        <ul className="divide-y divide-slate-100">
          {order.lines.map((line, index) => (
            <OrderLine
              key={`${line.productId ?? 'removed'}-${index}`}
              line={line}
              look="admin"
              srcSet={mediaSrcSet}
              className="py-3"
            />
          ))}
        </ul>
        <dl className="mt-2 space-y-1 border-t border-slate-200 pt-2 text-sm">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd>
              <Money cents={order.subtotalCents} />
            </dd>
          </div>
          <div className="flex justify-between">
            <dt>Frete</dt>
            <dd>{order.shippingCents === 0 ? 'Grátis' : <Money cents={order.shippingCents} />}</dd>
          </div>
          {order.adjustments.map((adjustment) => (
            <div
              key={adjustment.label}
              className="flex justify-between"
              data-testid="order-discount"
            >
              <dt>{adjustment.label}</dt>
              <dd className="text-emerald-800">
                <SignedMoney cents={adjustment.cents} />
              </dd>
            </div>
          ))}
          <div className="flex justify-between text-base font-bold">
            <dt>Total do pedido</dt>
            <dd>
              <Money cents={order.totalCents} />
            </dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby={`${titleId}-status`} className="admin-card space-y-4">
        <h3 id={`${titleId}-status`} className="font-semibold">
          Status do pedido
        </h3>
        <StatusForm order={order} actionUrl={actionUrl} reply={reply} />
        {order.status === 'shipped' ? (
          <TrackingForm
            // A saved code becomes the field's new starting value.
            key={order.trackingCode}
            trackingCode={order.trackingCode}
            actionUrl={actionUrl}
            reply={reply}
          />
        ) : null}
        <div className="flex flex-wrap gap-2">
          {order.status === 'pending' && order.payment.provider === 'pix' ? (
            <IntentButton
              actionUrl={actionUrl}
              intent="mark-paid"
              label="Marcar como pago"
              busyLabel="Confirmando..."
            />
          ) : null}
          {canCancelOrder(order) ? (
            <CancelOrderDialog
              number={order.number}
              paid={wasPaid(money)}
              action={actionUrl}
              fields={{ intent: 'status', status: 'cancelled' }}
            />
          ) : null}
        </div>
      </section>

      <section aria-labelledby={`${titleId}-history`} className="admin-card space-y-4">
        <h3 id={`${titleId}-history`} className="font-semibold">
          Histórico
        </h3>
        <NoteForm actionUrl={actionUrl} reply={reply} />
        <Timeline events={order.events} when={when} />
      </section>

      {canDeleteOrder(money) ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <ConfirmDialog
            title={`Excluir pedido ${order.number}`}
            message={DELETE_ORDER_QUESTION}
            confirmLabel="Excluir"
            busyLabel="Excluindo..."
            triggerLabel="Excluir pedido"
            action={actionUrl}
            fields={{ intent: 'delete' }}
          />
        </div>
      ) : null}
    </article>
  );
}

/** Whether 'Gerar etiqueta' applies: a paid order shipping by a Melhor Envio service. */
function canBuyLabel(order: AdminOrderDetail): boolean {
  return (
    order.status === 'confirmed' &&
    order.shipping?.provider === 'melhorenvio' &&
    !!order.shipping.serviceId
  );
}

/** How the order ships: the carrier's service chosen, its label and 'Gerar etiqueta'. */
function ShippingSection({
  order,
  labels,
  actionUrl,
  titleId,
}: {
  order: AdminOrderDetail;
  labels: boolean;
  actionUrl: string;
  titleId: string;
}) {
  const { shipping, label } = order;
  const method =
    shipping?.carrier && shipping.service
      ? `${shipping.carrier} ${shipping.service}`
      : 'Frete da loja';
  return (
    <section aria-labelledby={`${titleId}-shipping`} className="admin-card space-y-3">
      <h3 id={`${titleId}-shipping`} className="font-semibold">
        Envio
      </h3>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Forma de envio</dt>
        <dd data-testid="order-shipping-method">
          {method}
          {shipping?.businessDays
            ? ` · ${countOf(shipping.businessDays, 'dia útil', 'dias úteis')}`
            : ''}
          {shipping?.approximate ? (
            <span className="block text-amber-900">{APPROXIMATE_SHIPPING}</span>
          ) : null}
        </dd>
        {label ? (
          <>
            <dt className="text-slate-600">Etiqueta</dt>
            <dd>
              {label.protocol ?? 'Melhor Envio'}
              {label.priceCents !== null ? ` · ${formatCents(label.priceCents)}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      <div className="flex flex-wrap gap-2">
        {label?.labelUrl ? (
          <a
            href={label.labelUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="admin-button-secondary"
            data-testid="label-link"
          >
            Abrir etiqueta<span className="sr-only"> (PDF do Melhor Envio, em nova aba)</span>
          </a>
        ) : null}
        {labels && canBuyLabel(order) ? (
          <IntentButton
            actionUrl={actionUrl}
            intent="label"
            label="Gerar etiqueta"
            busyLabel="Gerando etiqueta..."
          />
        ) : null}
      </div>
    </section>
  );
}

/**
 * The order at Bling: its sales order, and its NF-e (number, access key and DANFE once
 * authorized; SEFAZ's reason and 'Tentar de novo' when rejected).
 */
function InvoiceSection({
  order,
  erp,
  connected,
  actionUrl,
  titleId,
}: {
  order: AdminOrderDetail;
  erp: ErpOrderView | null;
  connected: boolean;
  actionUrl: string;
  titleId: string;
}) {
  const open = order.status !== 'cancelled' && !!order.payment.paidAt;
  const invoice = erp?.invoiceState ?? null;
  return (
    <section
      aria-labelledby={`${titleId}-invoice`}
      className="admin-card space-y-3"
      data-testid="order-invoice"
    >
      <h3 id={`${titleId}-invoice`} className="font-semibold">
        Nota fiscal (Bling)
      </h3>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Pedido no Bling</dt>
        <dd>
          {erp?.sendState === 'sent'
            ? `Enviado (nº ${erp.erpOrderId})`
            : erp?.sendState === 'queued'
              ? 'Na fila para envio'
              : erp?.sendState === 'refused'
                ? `Recusado: ${erp.sendError ?? ''}`
                : 'Não enviado'}
        </dd>
        {invoice ? (
          <>
            <dt className="text-slate-600">NF-e</dt>
            <dd data-testid="invoice-state">{INVOICE_STATE_LABELS[invoice]}</dd>
          </>
        ) : null}
        {invoice === 'authorized' && erp?.invoiceKey ? (
          <>
            <dt className="text-slate-600">Número</dt>
            <dd data-testid="invoice-number">{erp.invoiceNumber}</dd>
            <dt className="text-slate-600">Chave de acesso</dt>
            <dd className="break-all font-mono" data-testid="invoice-key">
              {formatAccessKey(erp.invoiceKey)}
            </dd>
          </>
        ) : null}
        {invoice === 'rejected' ? (
          <>
            <dt className="text-slate-600">Motivo da SEFAZ</dt>
            <dd className="text-red-900" data-testid="invoice-reason">
              {erp?.invoiceReason}
            </dd>
          </>
        ) : null}
      </dl>
      {order.status === 'cancelled' && invoice === 'authorized' && erp?.invoiceId ? (
        <p className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
          Este pedido foi cancelado, mas a NF-e continua autorizada:{' '}
          <a
            href={blingInvoiceLink(erp.invoiceId)}
            target="_blank"
            rel="noopener noreferrer"
            className="underline"
          >
            cancele a nota no Bling
          </a>
          .
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {invoice === 'authorized' && erp?.danfeUrl ? (
          <a
            href={erp.danfeUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="admin-button-secondary"
            data-testid="danfe-link"
          >
            Abrir DANFE<span className="sr-only"> (PDF do Bling, em nova aba)</span>
          </a>
        ) : null}
        {connected && open && (!erp || erp.sendState === 'refused') ? (
          <IntentButton
            actionUrl={actionUrl}
            intent="erp-send"
            label="Enviar ao Bling"
            busyLabel="Enviando..."
          />
        ) : null}
        {connected && open && (invoice === null || invoice === 'cancelled') ? (
          <IntentButton
            actionUrl={actionUrl}
            intent="invoice"
            label="Emitir NF-e"
            busyLabel="Emitindo..."
          />
        ) : null}
        {connected && open && invoice === 'rejected' ? (
          <IntentButton
            actionUrl={actionUrl}
            intent="invoice-retry"
            label="Tentar de novo"
            busyLabel="Enviando..."
          />
        ) : null}
      </div>
    </section>
  );
}

/** The provider's payment id, linking to the payment in its panel when it gave one. */
function PaymentIdLink({ id, href }: { id: string; href: string | null | undefined }) {
  // Only a web address is a link: the stored details are the provider's words.
  if (!href || !/^https:\/\//.test(href)) return <>{id}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="text-blue-800 underline">
      {id}
      <span className="sr-only"> (abre o painel do provedor em nova aba)</span>
    </a>
  );
}

/** When the provider releases the money to the store ('A liberar em 27/12/2026', 'Liberado'). */
function releaseText(details: PaymentDetails, timeZone: string): string | null {
  const date = details.releaseDate ? new Date(details.releaseDate) : null;
  const day = date && !Number.isNaN(date.getTime()) ? formatDate(date, timeZone) : null;
  if (details.releaseStatus === 'released') return day ? `Liberado em ${day}` : 'Liberado';
  if (day) return `A liberar em ${day}`;
  return null;
}

const isCard = (method: string | null) => method === 'credit_card' || method === 'debit_card';

/** The provider's account of the payment: instalments, what was paid, fees, net and settlement. */
function PaymentDetailRows({
  details,
  provider,
  timeZone,
}: {
  details: PaymentDetails;
  provider: string;
  timeZone: string;
}) {
  const release = releaseText(details, timeZone);
  const rows: [string, React.ReactNode][] = [];
  if (details.brand && isCard(details.method)) {
    rows.push(['Bandeira', paymentBrandLabel(details.brand)]);
  } else if (details.brand && details.method === 'boleto') {
    rows.push(['Emissor', paymentBrandLabel(details.brand)]);
  }
  if (details.installments && isCard(details.method)) {
    rows.push([
      'Parcelas',
      details.installments > 1 && details.installmentCents !== null
        ? `${details.installments}x de ${formatCents(details.installmentCents)}`
        : 'À vista',
    ]);
  }
  if (details.paidCents !== null) {
    rows.push(['Pago pelo cliente', <Money key="paid" cents={details.paidCents} />]);
  }
  if (details.feeCents !== null) {
    rows.push([`Tarifas do ${provider}`, <Money key="fee" cents={details.feeCents} />]);
  }
  if (details.netCents !== null) {
    rows.push(['Líquido para a loja', <Money key="net" cents={details.netCents} />]);
  }
  if (details.refundedCents > 0) {
    rows.push(['Reembolsado', <Money key="refunded" cents={details.refundedCents} />]);
  }
  if (release) rows.push(['Liberação do dinheiro', release]);
  return rows.map(([term, value]) => (
    <div key={term} className="contents" data-testid="payment-detail">
      <dt className="text-slate-600">{term}</dt>
      <dd>{value}</dd>
    </div>
  ));
}

function fieldErrorsOf(reply: OrderActionReply | undefined, intent: string) {
  return reply && !reply.ok && reply.intent === intent ? (reply.fieldErrors ?? {}) : {};
}

function StatusForm({
  order,
  actionUrl,
  reply,
}: {
  order: AdminOrderDetail;
  actionUrl: string;
  reply?: OrderActionReply;
}) {
  const fetcher = useFetcher<OrderActionReply>();
  useToastFrom(fetcher.data);
  const { errors: clientErrors, check } = useFormCheck(orderStatusFormSchema);
  const id = useId();
  const busy = fetcher.state !== 'idle';
  const targets = ORDER_TRANSITIONS[order.status].filter((status) => status !== 'cancelled');
  if (targets.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        Este pedido está {adminStatusWord(order.status)}: o status não muda mais.
      </p>
    );
  }
  const errors = clientErrors ?? {
    ...fieldErrorsOf(reply, 'status'),
    ...fieldErrorsOf(fetcher.data, 'status'),
  };
  const shipping = targets.includes('shipped');
  return (
    <fetcher.Form
      method="post"
      action={actionUrl}
      noValidate
      className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end"
      onSubmit={check}
    >
      <input type="hidden" name="intent" value="status" />
      <FormField
        look={ADMIN_FORM}
        idPrefix={id}
        name="status"
        label="Novo status"
        error={errors.status}
      >
        {(control) => (
          <select
            {...control}
            // A new status brings new choices: the field starts again at 'Selecione'.
            key={order.status}
            required
            disabled={busy}
            defaultValue=""
            className="admin-input"
          >
            {busy ? (
              <option value="">Atualizando...</option>
            ) : (
              <>
                <option value="" disabled>
                  Selecione
                </option>
                {targets.map((status) => (
                  <option key={status} value={status}>
                    {TRANSITION_LABELS[status]}
                  </option>
                ))}
              </>
            )}
          </select>
        )}
      </FormField>
      {shipping ? (
        <TrackingCodeField
          idPrefix={id}
          label="Código de rastreio"
          hint="Obrigatório para marcar como enviado. O cliente recebe o código por e-mail."
          error={errors.trackingCode}
          placeholder="Ex.: AA123456789BR"
          defaultValue={reply?.values?.trackingCode}
        />
      ) : (
        <div className="hidden sm:block" />
      )}
      <SubmitButton busy={busy} busyLabel="Atualizando..." className="admin-button-primary">
        Atualizar status
      </SubmitButton>
    </fetcher.Form>
  );
}

/** The tracking code's field, in the status form (for Enviado) and in its own correction form. */
function TrackingCodeField({
  idPrefix,
  label,
  hint,
  error,
  placeholder,
  defaultValue,
}: {
  idPrefix: string;
  label: string;
  hint: string;
  error?: string;
  placeholder?: string;
  defaultValue?: string;
}) {
  return (
    <FormField
      look={ADMIN_FORM}
      idPrefix={idPrefix}
      name="trackingCode"
      label={label}
      hint={hint}
      error={error}
    >
      {(control) => (
        <input
          {...control}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder={placeholder}
          defaultValue={defaultValue}
          className="admin-input"
        />
      )}
    </FormField>
  );
}

/** A shipped order's tracking code, corrected; the shopper is e-mailed the new one. */
function TrackingForm({
  trackingCode,
  actionUrl,
  reply,
}: {
  trackingCode: string | null;
  actionUrl: string;
  reply?: OrderActionReply;
}) {
  const fetcher = useFetcher<OrderActionReply>();
  useToastFrom(fetcher.data);
  const { errors: clientErrors, check } = useFormCheck(orderTrackingFormSchema);
  const id = useId();
  const busy = fetcher.state !== 'idle';
  const errors = clientErrors ?? {
    ...fieldErrorsOf(reply, 'tracking'),
    ...fieldErrorsOf(fetcher.data, 'tracking'),
  };
  return (
    <fetcher.Form
      method="post"
      action={actionUrl}
      noValidate
      className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end"
      onSubmit={check}
    >
      <input type="hidden" name="intent" value="tracking" />
      <TrackingCodeField
        idPrefix={id}
        label="Corrigir código de rastreio"
        hint="O cliente recebe o novo código por e-mail."
        error={errors.trackingCode}
        defaultValue={trackingCode ?? ''}
      />
      <SubmitButton busy={busy} busyLabel="Salvando..." className="admin-button-secondary sm:mb-5">
        Salvar código
      </SubmitButton>
    </fetcher.Form>
  );
}

/** A button that posts one intent to the order, with its answer as a toast. */
function IntentButton({
  actionUrl,
  intent,
  label,
  busyLabel,
}: {
  actionUrl: string;
  intent: 'mark-paid' | 'label' | 'erp-send' | 'invoice' | 'invoice-retry';
  label: string;
  busyLabel: string;
}) {
  const fetcher = useFetcher<OrderActionReply>();
  useToastFrom(fetcher.data);
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form method="post" action={actionUrl}>
      <input type="hidden" name="intent" value={intent} />
      <SubmitButton busy={busy} busyLabel={busyLabel} className="admin-button-primary">
        {label}
      </SubmitButton>
    </fetcher.Form>
  );
}

function NoteForm({ actionUrl, reply }: { actionUrl: string; reply?: OrderActionReply }) {
  const fetcher = useFetcher<OrderActionReply>();
  useToastFrom(fetcher.data);
  const form = useRef<HTMLFormElement>(null);
  const { errors: clientErrors, check } = useFormCheck(orderNoteFormSchema);
  const id = useId();
  const busy = fetcher.state !== 'idle';
  useEachAnswer(fetcher.state === 'idle' ? fetcher.data : undefined, (answer) => {
    if (answer.ok) form.current?.reset();
  });
  const error =
    clientErrors?.note ??
    fieldErrorsOf(fetcher.data, 'note').note ??
    fieldErrorsOf(reply, 'note').note;
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={actionUrl}
      noValidate
      className="space-y-2"
      onSubmit={check}
    >
      <input type="hidden" name="intent" value="note" />
      <FormField
        look={ADMIN_FORM}
        idPrefix={id}
        name="note"
        label="Observação interna"
        hint="Só a equipe vê. O cliente nunca recebe esta observação."
        error={error}
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            maxLength={NOTE_MAX_LENGTH}
            required
            defaultValue={reply?.intent === 'note' && !reply.ok ? reply.values?.note : undefined}
            className="admin-input"
          />
        )}
      </FormField>
      <SubmitButton busy={busy} busyLabel="Salvando..." className="admin-button-secondary">
        Adicionar observação
      </SubmitButton>
    </fetcher.Form>
  );
}

function Timeline({ events, when }: { events: OrderEvent[]; when: (date: Date) => string }) {
  if (events.length === 0) {
    return <p className="text-sm text-slate-600">Nenhum registro ainda.</p>;
  }
  // Newest first (as listed): what just happened sits under the note form.
  return (
    <ol className="space-y-3 border-l-2 border-slate-200 pl-4" data-testid="order-timeline">
      {events.map((event) => (
        <li key={event.id} className="text-sm">
          <p className="text-xs text-slate-600">
            <time dateTime={new Date(event.createdAt).toISOString()}>{when(event.createdAt)}</time>
            {' · '}
            {event.actor}
          </p>
          <p className="font-medium">
            {event.kind === 'status' && event.toStatus
              ? event.fromStatus
                ? `${ADMIN_STATUS_LABELS[event.fromStatus]} → ${ADMIN_STATUS_LABELS[event.toStatus]}`
                : ADMIN_STATUS_LABELS[event.toStatus]
              : EVENT_KIND_LABELS[event.kind]}
          </p>
          {event.note ? <p className="break-words whitespace-pre-line">{event.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}
