import { z } from 'zod';

import { callOutsideService, OutsideServiceError } from '~/lib/http-client.server';

import type { MelhorEnvioOptions } from './melhorenvio.server';
import type { Parcel } from './types';

/** Someone a parcel leaves from or goes to, as the label prints them. */
export interface LabelParty {
  name: string;
  /** Digits. */
  phone: string;
  email: string;
  /** CPF (11 digits) or CNPJ (14 characters, the alphanumeric form included). */
  document: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  /** 'SP' */
  state: string;
  /** 8 digits. */
  postalCode: string;
}

/** One order's shipment, as the carrier's cart takes it. */
export interface LabelShipment {
  serviceId: string;
  from: LabelParty;
  to: LabelParty;
  products: { name: string; quantity: number; unitCents: number }[];
  parcel: Parcel;
  /** The goods' value, which the carrier insures. */
  insuranceCents: number;
  /** The order's number ('#1001'), shown beside the shipment in Melhor Envio's panel. */
  tag: string;
  /** The access key of the order's authorized NF-e; null: the goods go with a content declaration. */
  invoiceKey: string | null;
}

export type LabelAnswer<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A shipment at Melhor Envio as its tracking call reads it. */
export interface ShipmentTracking {
  status: string;
  /** The carrier's code, else Melhor Envio's own (which its tracking page follows); null before generation. */
  trackingCode: string | null;
}

/** The label calls at Melhor Envio: each one step, each answering why it failed in pt-BR. */
export interface MelhorEnvioLabels {
  addToCart(
    shipment: LabelShipment,
  ): Promise<
    LabelAnswer<{ shipmentId: string; protocol: string | null; priceCents: number | null }>
  >;
  /** The shipment's status now ('pending' while unpaid). */
  status(shipmentId: string): Promise<LabelAnswer<string>>;
  pay(shipmentId: string): Promise<LabelAnswer<null>>;
  generate(shipmentId: string): Promise<LabelAnswer<null>>;
  print(shipmentId: string): Promise<LabelAnswer<string>>;
  tracking(shipmentId: string): Promise<LabelAnswer<ShipmentTracking>>;
}

export const LABEL_REFUSALS = {
  balance: (said: string) =>
    `Saldo insuficiente na carteira do Melhor Envio: adicione saldo e tente de novo. (${said})`,
  address: (said: string) => `O Melhor Envio recusou um endereço do envio: ${said}`,
  dimensions: (said: string) => `O Melhor Envio recusou as medidas ou o peso do pacote: ${said}`,
  service: (said: string) => `O Melhor Envio recusou o serviço de envio: ${said}`,
  token:
    'O Melhor Envio recusou o acesso: confira o token (em Pagamentos › Frete por transportadora) ' +
    'e suas permissões.',
  slow: 'O Melhor Envio não respondeu a tempo. Tente de novo: a etiqueta continua de onde parou.',
  unreachable:
    'Não foi possível falar com o Melhor Envio. Tente de novo: a etiqueta continua de onde parou.',
  other: (status: number, said: string) =>
    `O Melhor Envio não aceitou o pedido (erro ${status})${said ? `: ${said}` : '.'}`,
  odd: 'O Melhor Envio respondeu algo inesperado. Confira o envio no painel dele.',
} as const;

const MAX_RESPONSE_BYTES = 512 * 1024;
/** A label call buys or prints: staff wait for it, but a slow answer is not yet a refusal. */
const LABEL_TIMEOUT_MS = 20_000;

const centsToReais = (cents: number) => Math.round(cents) / 100;

/** Prices come as strings ("20.83") or numbers, in reais. */
const reaisToCents = (value: unknown): number | null => {
  const amount = Number(value);
  return typeof value !== 'boolean' && Number.isFinite(amount) && amount >= 0
    ? Math.round(amount * 100)
    : null;
};

const refusalBody = z.looseObject({
  message: z.string().optional(),
  error: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/**
 * Why Melhor Envio refused, in pt-BR, from its answer: its own words (already pt-BR) under a
 * sentence saying what was wrong: the balance, an address, the package, or the service.
 */
export function refusalReason(status: number, text: string): string {
  if (status === 401 || status === 403) return LABEL_REFUSALS.token;
  let body: z.infer<typeof refusalBody> = {};
  try {
    const parsed = refusalBody.safeParse(JSON.parse(text));
    if (parsed.success) body = parsed.data;
  } catch {
    // Not JSON (a proxy's page): the status alone speaks.
  }
  const fields = Object.entries(body.errors ?? {});
  const said = (list: [string, string[]][]) =>
    list
      .flatMap(([, messages]) => messages)
      .join(' ')
      .slice(0, 500);
  if (body.error) {
    const error = body.error.slice(0, 500);
    if (/saldo/i.test(error)) return LABEL_REFUSALS.balance(error);
    if (/dimens|peso|medida/i.test(error)) return LABEL_REFUSALS.dimensions(error);
    if (/endere|cep|document/i.test(error)) return LABEL_REFUSALS.address(error);
    return LABEL_REFUSALS.service(error);
  }
  const address = fields.filter(([field]) => /^(from|to)\b/.test(field));
  if (address.length > 0) return LABEL_REFUSALS.address(said(address));
  const parcel = fields.filter(([field]) => /^(volumes|products|package)\b/.test(field));
  if (parcel.length > 0) return LABEL_REFUSALS.dimensions(said(parcel));
  const service = fields.filter(([field]) => /^(service|agency)\b/.test(field));
  if (service.length > 0) return LABEL_REFUSALS.service(said(service));
  return LABEL_REFUSALS.other(status, said(fields) || (body.message ?? '').slice(0, 300));
}

function party(who: LabelParty) {
  const document = who.document.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  return {
    name: who.name,
    phone: who.phone.replace(/\D/g, ''),
    email: who.email,
    // A company sends its CNPJ as company_document, a person a CPF as document.
    ...(document.length === 14 ? { company_document: document } : { document }),
    address: who.street,
    number: who.number,
    complement: who.complement,
    district: who.district,
    city: who.city,
    state_abbr: who.state,
    country_id: 'BR',
    postal_code: who.postalCode,
  };
}

/** The cart's body: one volume (Correios and most carriers take one per shipment), kg and cm. */
export function cartBody(shipment: LabelShipment) {
  const { parcel } = shipment;
  return {
    service: Number(shipment.serviceId),
    from: party(shipment.from),
    to: party(shipment.to),
    products: shipment.products.map((product) => ({
      name: product.name,
      quantity: product.quantity,
      unitary_value: centsToReais(product.unitCents),
    })),
    volumes: [
      {
        height: parcel.heightCm,
        width: parcel.widthCm,
        length: parcel.lengthCm,
        weight: parcel.weightGrams / 1000,
      },
    ],
    options: {
      insurance_value: centsToReais(shipment.insuranceCents),
      receipt: false,
      own_hand: false,
      reverse: false,
      // With the order's NF-e (issued through the ERP) the carrier takes its key; without one the
      // goods go with a content declaration.
      ...(shipment.invoiceKey
        ? { non_commercial: false, invoice: { key: shipment.invoiceKey } }
        : { non_commercial: true }),
      tags: [{ tag: shipment.tag, url: null }],
    },
  };
}

const shipmentId = z.string().regex(/^[0-9A-Za-z-]{1,64}$/);

export function createMelhorEnvioLabels(
  options: MelhorEnvioOptions & { timeoutMs?: number },
): MelhorEnvioLabels {
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<LabelAnswer<unknown>> {
    let answer;
    try {
      answer = await callOutsideService(`${options.apiUrl}${path}`, {
        service: 'melhorenvio',
        method,
        headers: {
          Authorization: `Bearer ${options.token}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          'User-Agent': await options.userAgent(),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: options.timeoutMs ?? LABEL_TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        secrets: [options.token],
        fetch: options.fetch,
      });
    } catch (error) {
      if (error instanceof OutsideServiceError && error.failure === 'timeout') {
        return { ok: false, reason: LABEL_REFUSALS.slow };
      }
      return { ok: false, reason: LABEL_REFUSALS.unreachable };
    }
    if (!answer.ok) return { ok: false, reason: refusalReason(answer.status, answer.text) };
    try {
      return { ok: true, value: JSON.parse(answer.text) as unknown };
    } catch {
      return { ok: false, reason: LABEL_REFUSALS.odd };
    }
  }

  /** The entry for our one shipment in an answer keyed by shipment id. */
  const entry = (value: unknown, id: string): Record<string, unknown> | null => {
    const found = (value as Record<string, unknown> | null)?.[id];
    return typeof found === 'object' && found !== null ? (found as Record<string, unknown>) : null;
  };
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const odd = { ok: false, reason: LABEL_REFUSALS.odd } as const;

  return {
    async addToCart(shipment) {
      const answer = await call('POST', '/me/cart', cartBody(shipment));
      if (!answer.ok) return answer;
      const made = answer.value as Record<string, unknown>;
      const id = shipmentId.safeParse(made?.id);
      if (!id.success) return odd;
      return {
        ok: true,
        value: {
          shipmentId: id.data,
          protocol: text(made.protocol),
          priceCents: reaisToCents(made.price),
        },
      };
    },
    async status(id) {
      const answer = await call('GET', `/me/orders/${encodeURIComponent(id)}`);
      if (!answer.ok) return answer;
      const status = text((answer.value as Record<string, unknown> | null)?.status);
      return status ? { ok: true, value: status } : odd;
    },
    async pay(id) {
      const answer = await call('POST', '/me/shipment/checkout', { orders: [id] });
      return answer.ok ? { ok: true, value: null } : answer;
    },
    async generate(id) {
      const answer = await call('POST', '/me/shipment/generate', { orders: [id] });
      if (!answer.ok) return answer;
      const result = entry(answer.value, id);
      const message = text(result?.message) ?? '';
      // Generating twice (a retry) answers false with "já está gerado": the label exists.
      if (result?.status === true || /já está gerad/i.test(message))
        return { ok: true, value: null };
      return { ok: false, reason: LABEL_REFUSALS.service(message || 'etiqueta não gerada.') };
    },
    async print(id) {
      // 'public': staff open the PDF in their own browser, which holds no Melhor Envio session.
      const answer = await call('POST', '/me/shipment/print', { mode: 'public', orders: [id] });
      if (!answer.ok) return answer;
      const url = text((answer.value as Record<string, unknown> | null)?.url);
      return url && /^https?:\/\//.test(url) ? { ok: true, value: url } : odd;
    },
    async tracking(id) {
      const answer = await call('POST', '/me/shipment/tracking', { orders: [id] });
      if (!answer.ok) return answer;
      const result = entry(answer.value, id);
      const status = text(result?.status);
      if (!result || !status) return odd;
      return {
        ok: true,
        value: {
          status,
          trackingCode: text(result.tracking) ?? text(result.melhorenvio_tracking),
        },
      };
    },
  };
}
