import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { formatCents } from '~/lib/money';
import { countOf } from '~/lib/plural';
import { variantLabel } from '~/modules/catalog';
import { lookupVariants } from '~/modules/catalog/index.server';
import { authorizedInvoiceKey } from '~/modules/erp/index.server';
import type { OrderView } from '~/modules/orders';
import { adminStatusWord } from '~/modules/orders/index.admin';
import {
  claimLabelLease,
  claimLabelsToTrack,
  findOrderIdByShipment,
  getOrder,
  lockLabelState,
  recordOrderEvent,
  releaseLabelLease,
  saveShippingLabel,
  type OrderEventOptions,
} from '~/modules/orders/index.server';
import type { StoreSettings } from '~/modules/settings';
import { parcelFor, type ShippingLabel } from '~/modules/shipping';
import type { LabelShipment, MelhorEnvioLabels } from '~/modules/shipping/index.server';

import {
  changeOrderStatusBy,
  changeTrackingCodeBy,
  staffActor,
  type OrderActor,
  type StaffMember,
  type StaffResult,
} from './order-changes.server';

export const LABEL_MESSAGES = {
  notFound: 'Pedido não encontrado.',
  notConfigured:
    'Etiquetas precisam do Melhor Envio conectado: cole o token em Pagamentos › Frete por ' +
    'transportadora.',
  notPaid: (status: string) =>
    `Só pedidos pagos (confirmados) geram etiqueta; este está ${status}.`,
  noService:
    'Este pedido não tem um serviço do Melhor Envio escolhido na compra: envie-o pelo status, ' +
    'com o código de rastreio.',
  noOrigin:
    'Preencha o endereço de origem dos envios (CEP, rua, número, bairro, cidade e estado) em ' +
    'Configurações › Vendas e entrega antes de gerar etiquetas.',
  noSender:
    'Preencha o CNPJ da loja em Configurações › Identificação da empresa: o Melhor Envio o ' +
    'exige do remetente.',
  busy: 'A etiqueta deste pedido já está sendo gerada. Aguarde um instante e atualize a página.',
  done: (code: string) =>
    `Etiqueta gerada. Pedido enviado com o código ${code}; o cliente recebeu o código por e-mail.`,
  already: 'A etiqueta deste pedido já foi gerada.',
  noTracking:
    'Etiqueta gerada, mas o Melhor Envio ainda não informou o código de rastreio. Tente de novo ' +
    'em alguns minutos.',
  error: 'Erro ao gerar a etiqueta. Tente novamente: ela continua de onde parou.',
  cancelledThere:
    'O envio foi cancelado ou expirou no Melhor Envio. Tente de novo para criar um novo envio.',
} as const;

/** The timeline's words for each step at the carrier. */
const LABEL_NOTES = {
  cart: (protocol: string | null, price: number | null) =>
    `Envio criado no Melhor Envio${protocol ? ` (${protocol})` : ''}` +
    `${price === null ? '' : `, frete de ${formatCents(price)}`}.`,
  paid: 'Etiqueta paga com o saldo do Melhor Envio.',
  generated: 'Etiqueta gerada no Melhor Envio.',
  printed: 'Etiqueta pronta para imprimir.',
  shipped: (protocol: string | null, code: string) =>
    `Etiqueta do Melhor Envio${protocol ? ` (${protocol})` : ''}. Código de rastreio: ${code}`,
  failed: (reason: string) => `Etiqueta não gerada: ${reason}`,
  delivered: 'Entrega confirmada pelo Melhor Envio.',
} as const;

/** Who the timeline names for what the carrier reports on its own. */
const BY_CARRIER: OrderActor = { actor: 'Melhor Envio' };

/** Longer than every step's calls together: a request that died frees the order after it. */
const LEASE_MS = 3 * 60_000;
/** How often the periodic check reads each shipped order's tracking. */
export const TRACKING_CHECK_INTERVAL_MS = 30 * 60_000;
/** Orders read per round of the periodic check, one after the other. */
const TRACKING_BATCH = 50;

export interface LabelScope {
  db: Db;
  labels: MelhorEnvioLabels | null;
  settings: StoreSettings;
  events: OrderEventOptions;
}

type Failure = Extract<StaffResult, { ok: false }>;
const refuse = (status: Failure['status'], error: string): Failure => ({
  ok: false,
  status,
  error,
});

/** The sender and recipient, package and goods of an order's shipment; a string says what is missing. */
async function shipmentOf(
  db: Db,
  order: OrderView,
  serviceId: string,
  settings: StoreSettings,
): Promise<LabelShipment | string> {
  const origin = {
    street: settings.shipping_origin_street,
    number: settings.shipping_origin_number,
    district: settings.shipping_origin_district,
    city: settings.shipping_origin_city,
    state: settings.shipping_origin_state,
    postalCode: settings.shipping_origin_cep,
  };
  if (Object.values(origin).some((value) => value === '')) return LABEL_MESSAGES.noOrigin;
  if (!settings.cnpj) return LABEL_MESSAGES.noSender;
  const variantIds = order.lines.flatMap((line) => (line.variantId ? [line.variantId] : []));
  const measures = new Map(
    (await lookupVariants(db, { variantIds })).map((variant) => [variant.id, variant]),
  );
  const parcel = parcelFor(
    order.lines.map((line) => {
      const variant = line.variantId ? measures.get(line.variantId) : undefined;
      return {
        quantity: line.quantity,
        weightGrams: variant?.weightGrams ?? null,
        lengthMm: variant?.lengthMm ?? null,
        widthMm: variant?.widthMm ?? null,
        heightMm: variant?.heightMm ?? null,
      };
    }),
    settings,
  );
  return {
    serviceId,
    from: {
      ...origin,
      name: settings.legal_name || settings.store_name,
      phone: settings.contact_phone,
      email: settings.contact_email,
      document: settings.cnpj,
      complement: settings.shipping_origin_complement,
    },
    to: {
      name: order.customer.name,
      phone: order.customer.phone,
      email: order.customer.email,
      document: order.customer.cpf,
      street: order.address.street,
      number: order.address.number,
      complement: order.address.complement ?? '',
      district: order.address.neighborhood,
      city: order.address.city,
      state: order.address.state,
      postalCode: order.address.zipCode.replace(/\D/g, ''),
    },
    products: order.lines.map((line) => ({
      name: variantLabel(line),
      quantity: line.quantity,
      unitCents: line.unitPriceCents,
    })),
    parcel,
    // The goods, not what the shopper paid for shipping or saved with a coupon.
    insuranceCents: order.subtotalCents,
    tag: order.number,
    invoiceKey: await authorizedInvoiceKey(db, order.id),
  };
}

/**
 * 'Gerar etiqueta': puts the order's shipment in Melhor Envio's cart, pays it from the store's
 * balance, generates and prints the label, reads the tracking code and ships the order (the
 * same timeline line, e-mail and report as a manual 'Enviado'). Each step is one call outside
 * any transaction, then one transaction saving its result on the order with a timeline line, so
 * a retry continues from the last step done. The shipment's id is saved before it is paid, and
 * its status is read again before paying, so it is bought once whatever fails or times out. One
 * request at a time works on an order (a lease on its row); a failure is written in the
 * timeline in pt-BR and changes nothing else.
 */
export async function buyShippingLabel(
  scope: LabelScope,
  orderId: string,
  admin: StaffMember,
): Promise<StaffResult> {
  const { db, labels } = scope;
  const by = staffActor(admin);
  if (!labels) return refuse(409, LABEL_MESSAGES.notConfigured);
  const order = await getOrder(db, orderId);
  if (!order) return refuse(404, LABEL_MESSAGES.notFound);
  const now = new Date();
  const lease = await claimLabelLease(db, orderId, new Date(now.getTime() + LEASE_MS), now);
  if (!lease) return refuse(409, LABEL_MESSAGES.busy);
  try {
    return await continueLabel({ ...scope, labels }, order, by);
  } finally {
    await releaseLabelLease(db, lease);
  }
}

async function continueLabel(
  scope: LabelScope & { labels: MelhorEnvioLabels },
  order: OrderView,
  by: OrderActor,
): Promise<StaffResult> {
  const { db, labels } = scope;
  const orderId = order.id;
  const current = await db.transaction((tx) => lockLabelState(tx, orderId));
  if (!current) return refuse(404, LABEL_MESSAGES.notFound);
  let label = current.label;
  if (label?.step === 'tracked' && current.status !== 'confirmed') {
    return { ok: true, message: LABEL_MESSAGES.already };
  }
  if (current.status !== 'confirmed') {
    return refuse(409, LABEL_MESSAGES.notPaid(adminStatusWord(current.status)));
  }
  const serviceId = current.shipping?.provider === 'melhorenvio' && current.shipping.serviceId;
  if (!serviceId) return refuse(409, LABEL_MESSAGES.noService);

  /** Saves a step's result with its timeline line; false when the order went meanwhile. */
  const save = (next: ShippingLabel | null, note: string) =>
    db.transaction(async (tx) => {
      if (!(await lockLabelState(tx, orderId))) return false;
      await saveShippingLabel(tx, orderId, next);
      await recordOrderEvent(tx, { orderId, kind: 'label', note, ...by });
      return true;
    });
  const fail = async (reason: string): Promise<StaffResult> => {
    logger.warn({ orderId, shipmentId: label?.shipmentId, reason }, 'Shipping label step failed');
    await db.transaction(async (tx) => {
      if (!(await lockLabelState(tx, orderId))) return;
      await recordOrderEvent(tx, {
        orderId,
        kind: 'label',
        note: LABEL_NOTES.failed(reason),
        ...by,
      });
    });
    return refuse(409, reason);
  };
  const advance = async (changes: Partial<ShippingLabel>, note: string) => {
    label = { ...label!, ...changes };
    if (!(await save(label, note))) throw new Error('Order deleted while its label was bought');
  };

  if (!label) {
    const shipment = await shipmentOf(db, order, serviceId, scope.settings);
    if (typeof shipment === 'string') return fail(shipment);
    const made = await labels.addToCart(shipment);
    if (!made.ok) return fail(made.reason);
    label = {
      provider: 'melhorenvio',
      shipmentId: made.value.shipmentId,
      protocol: made.value.protocol,
      step: 'cart',
      priceCents: made.value.priceCents,
      labelUrl: null,
      trackingCode: null,
      carrierStatus: 'pending',
      checkedAt: null,
    };
    if (!(await save(label, LABEL_NOTES.cart(label.protocol, label.priceCents)))) {
      return refuse(404, LABEL_MESSAGES.notFound);
    }
  }

  if (label.step === 'cart') {
    // Never paid blind: an earlier attempt may have paid and lost the answer.
    let status = await labels.status(label.shipmentId);
    if (!status.ok) return fail(status.reason);
    if (status.value === 'pending') {
      const paid = await labels.pay(label.shipmentId);
      if (!paid.ok) {
        status = await labels.status(label.shipmentId);
        if (!status.ok || status.value === 'pending') return fail(paid.reason);
      } else {
        status = { ok: true, value: 'released' };
      }
    }
    if (status.value === 'canceled' || status.value === 'expired') {
      // Nothing was bought with it: the next try starts a new shipment.
      await save(null, LABEL_NOTES.failed(LABEL_MESSAGES.cancelledThere));
      return refuse(409, LABEL_MESSAGES.cancelledThere);
    }
    await advance({ step: 'paid', carrierStatus: status.value }, LABEL_NOTES.paid);
  }

  if (label.step === 'paid') {
    const generated = await labels.generate(label.shipmentId);
    if (!generated.ok) return fail(generated.reason);
    await advance({ step: 'generated' }, LABEL_NOTES.generated);
  }

  if (label.step === 'generated') {
    const printed = await labels.print(label.shipmentId);
    if (!printed.ok) return fail(printed.reason);
    await advance({ step: 'printed', labelUrl: printed.value }, LABEL_NOTES.printed);
  }

  const tracking = await labels.tracking(label.shipmentId);
  if (!tracking.ok) return fail(tracking.reason);
  const code = tracking.value.trackingCode;
  if (!code) return { ok: true, warning: true, message: LABEL_MESSAGES.noTracking };
  label = {
    ...label,
    step: 'tracked',
    trackingCode: code,
    carrierStatus: tracking.value.status,
    checkedAt: new Date().toISOString(),
  };
  await db.transaction(async (tx) => {
    if (await lockLabelState(tx, orderId)) await saveShippingLabel(tx, orderId, label);
  });
  const shipped = await changeOrderStatusBy(
    db,
    {
      orderId,
      to: 'shipped',
      trackingCode: code,
      by,
      note: LABEL_NOTES.shipped(label.protocol, code),
    },
    scope.events,
  );
  return shipped.ok ? { ok: true, message: LABEL_MESSAGES.done(code) } : shipped;
}

/** One order's result in 'Gerar etiquetas' on the list. */
export interface BatchLabelResult {
  orderId: string;
  number: string | null;
  ok: boolean;
  message: string;
}

/** 'Gerar etiquetas': each order on its own, one after the other, each with its own result. */
export async function buyShippingLabels(
  scope: LabelScope,
  orderIds: readonly string[],
  admin: StaffMember,
): Promise<BatchLabelResult[]> {
  const results: BatchLabelResult[] = [];
  for (const orderId of new Set(orderIds)) {
    const number = (await getOrder(scope.db, orderId))?.number ?? null;
    let result: StaffResult;
    try {
      result = await buyShippingLabel(scope, orderId, admin);
    } catch (error) {
      logger.error({ err: error, orderId }, 'Shipping label failed');
      result = refuse(409, LABEL_MESSAGES.error);
    }
    results.push({
      orderId,
      number,
      ok: result.ok && !result.warning,
      message: result.ok ? result.message : result.error,
    });
  }
  return results;
}

/** 'Gerar etiquetas' in one line: how many went, then each order's result. */
export function labelsSummary(results: readonly BatchLabelResult[]): string {
  const done = results.filter((result) => result.ok).length;
  const failed = results.length - done;
  const head = [
    done > 0 ? countOf(done, 'etiqueta gerada', 'etiquetas geradas') : null,
    failed > 0 ? `${countOf(failed, 'pedido', 'pedidos')} sem etiqueta` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const each = results.map((result) => `${result.number ?? 'Pedido'}: ${result.message}`);
  return [`${head}.`, ...each].join(' ');
}

export type FollowOutcome = 'delivered' | 'unchanged' | 'failed';

/**
 * Reads a shipped order's tracking from Melhor Envio, takes a new code it gives (the carrier's,
 * once there is one) and records a delivery it reports, through
 * the same status change staff make (timeline, the delivered e-mail, sales tracking). What a
 * notification said is never taken for the status: only this read is.
 */
export async function followShipment(
  scope: Pick<LabelScope, 'db' | 'labels' | 'events'>,
  orderId: string,
): Promise<FollowOutcome> {
  const { db, labels } = scope;
  if (!labels) return 'unchanged';
  const state = await db.transaction((tx) => lockLabelState(tx, orderId));
  const label = state?.label;
  if (!state || !label || state.status !== 'shipped') return 'unchanged';
  const tracking = await labels.tracking(label.shipmentId);
  if (!tracking.ok) {
    logger.warn({ orderId, reason: tracking.reason }, 'Shipment tracking could not be read');
    return 'failed';
  }
  const code = tracking.value.trackingCode;
  await db.transaction(async (tx) => {
    const now = await lockLabelState(tx, orderId);
    if (!now?.label) return;
    await saveShippingLabel(tx, orderId, {
      ...now.label,
      trackingCode: code ?? now.label.trackingCode,
      carrierStatus: tracking.value.status,
      checkedAt: new Date().toISOString(),
    });
  });
  // Melhor Envio's own code stands in until the carrier gives its code: the shopper gets that
  // one, as when staff correct a code.
  if (code && code !== label.trackingCode) {
    await changeTrackingCodeBy(db, { orderId, trackingCode: code, by: BY_CARRIER });
  }
  if (tracking.value.status !== 'delivered') return 'unchanged';
  const result = await changeOrderStatusBy(
    db,
    { orderId, to: 'delivered', trackingCode: null, by: BY_CARRIER, note: LABEL_NOTES.delivered },
    scope.events,
  );
  return result.ok ? 'delivered' : 'unchanged';
}

/** A notification about a carrier shipment: its order's tracking read again, if it is ours. */
export async function followNotifiedShipment(
  scope: Pick<LabelScope, 'db' | 'labels' | 'events'>,
  shipmentId: string,
): Promise<FollowOutcome | 'unknown'> {
  const orderId = await findOrderIdByShipment(scope.db, shipmentId);
  return orderId ? followShipment(scope, orderId) : 'unknown';
}

/**
 * The periodic check: shipped orders with a label whose tracking was not read for `everyMs`,
 * claimed in the database so that each is read by one instance per round.
 */
export async function followShippedLabels(
  scope: Pick<LabelScope, 'db' | 'labels' | 'events'>,
  everyMs = TRACKING_CHECK_INTERVAL_MS,
  now = new Date(),
): Promise<number> {
  if (!scope.labels) return 0;
  const due = await scope.db.transaction((tx) =>
    claimLabelsToTrack(tx, new Date(now.getTime() - everyMs), TRACKING_BATCH),
  );
  let delivered = 0;
  for (const orderId of due) {
    if ((await followShipment(scope, orderId)) === 'delivered') delivered++;
  }
  return delivered;
}
