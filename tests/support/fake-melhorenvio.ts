import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { recordRequest, type RecordedRequest } from './fake-gateway';

// A stand-in for Melhor Envio's API v2 (quotes, label purchase, tracking) and its webhooks, in the
// shapes of docs/research-melhorenvio.md (§ numbers below refer to it). Where ME's behaviour is
// UNCONFIRMED there, the fake picks the stricter reading, so our client is not built on a guess
// that only the fake tolerates.

export interface FakeMelhorEnvioOptions {
  /** The access token our app sends as `Authorization: Bearer <token>`. */
  token: string;
  /** The application's client secret, which signs webhooks (§7). */
  webhookSecret?: string;
  /** The fake's "now" (orders' and tracking's dates); the real clock by default. */
  now?: () => Date;
}

export interface FakeCompany {
  id: number;
  name: string;
  picture: string;
}

export interface FakeRange {
  min: number;
  max: number;
}

export interface FakeQuotePackage {
  price: string;
  discount: string;
  format: 'box';
  weight: string;
  insurance_value: string;
  dimensions: { height: number; width: number; length: number };
}

/** A service that can carry the package, as POST /me/shipment/calculate lists it (§3). */
export interface FakeQuoteOffer {
  id: number;
  name: string;
  price: string;
  custom_price: string;
  discount: string;
  currency: 'R$';
  delivery_time: number;
  delivery_range: FakeRange;
  custom_delivery_time: number;
  custom_delivery_range: FakeRange;
  packages: FakeQuotePackage[];
  additional_services: { receipt: boolean; own_hand: boolean; collect: boolean };
  company: FakeCompany;
}

/** A service that cannot carry it: no price, only ME's reason in pt-BR (§3). */
export interface FakeQuoteRefusal {
  id: number;
  name: string;
  error: string;
  company: FakeCompany;
}

export type FakeQuote = FakeQuoteOffer | FakeQuoteRefusal;

export type FakeOrderStatus =
  'pending' | 'released' | 'generated' | 'posted' | 'delivered' | 'canceled' | 'undelivered';

export interface FakeVolume {
  height: number;
  width: number;
  length: number;
  weight: number;
}

/** A shipment (ME calls it an order) as POST /me/cart and GET /me/orders/:id show it (§4.1). */
export interface FakeOrder {
  id: string;
  protocol: string;
  service_id: number;
  agency_id: number | null;
  price: number;
  discount: number;
  delivery_min: number;
  delivery_max: number;
  status: FakeOrderStatus;
  insurance_value: number;
  format: 'box';
  receipt: boolean;
  own_hand: boolean;
  collect: boolean;
  reverse: boolean;
  non_commercial: boolean;
  /** The NF-e's access key a commercial shipment travels with (options.invoice.key). */
  invoice_key: string | null;
  tracking: string | null;
  self_tracking: string | null;
  from: Record<string, unknown>;
  to: Record<string, unknown>;
  products: unknown[];
  volumes: FakeVolume[];
  tags: { tag: string; url: string | null }[];
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  generated_at: string | null;
  posted_at: string | null;
  delivered_at: string | null;
  canceled_at: string | null;
  expired_at: string | null;
}

export type FakeWebhookEvent =
  | 'order.created'
  | 'order.pending'
  | 'order.released'
  | 'order.generated'
  | 'order.received'
  | 'order.posted'
  | 'order.delivered'
  | 'order.cancelled'
  | 'order.undelivered'
  | 'order.paused'
  | 'order.suspended';

export interface WebhookOptions {
  /** Signs with another secret: the header has the right form but does not verify. */
  forge?: boolean;
  /** Sends this X-ME-Signature as is; `null` sends none. */
  signature?: string | null;
}

/** A webhook call, ready to send (§7). */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SentWebhook extends WebhookRequest {
  status?: number;
  answer?: string;
  error?: string;
}

/** A route the failure and delay switches can target, relative to /api/v2. */
export type FakeRoute =
  | '/me/shipment/calculate'
  | '/me/cart'
  | '/me/shipment/checkout'
  | '/me/shipment/generate'
  | '/me/shipment/print'
  | '/me/shipment/tracking';

export interface FakeMelhorEnvio {
  /** The API base, /api/v2 included, such as http://127.0.0.1:41234/api/v2. */
  url: string;
  /** Every request, in order, including refused ones. */
  requests: RecordedRequest[];
  /** Keyed by order id; tests may read or change them in place. */
  orders: Map<string, FakeOrder>;
  /** Every webhook sent, in order, with the answer it got. */
  webhooks: SentWebhook[];
  /** Authenticated POST /me/shipment/calculate requests, those the failure switch refused included. */
  calculateCalls(): number;
  /** Successful checkouts (purchases that took money from the balance). */
  purchaseCalls(): number;
  /** Holds the answer of `route` (calculate by default) for `ms`; 0 stops holding. */
  setDelay(ms: number, route?: FakeRoute): void;
  /** Answers `route` (calculate by default) with this status and ME's body for it; null heals. */
  setFailure(status: number | null, route?: FakeRoute): void;
  /** Replaces the services every quote answers (still filtered by `services`); null restores. */
  setServices(quotes: FakeQuote[] | null): void;
  /** The wallet balance, in reais as ME keeps it. */
  setBalance(reais: number): void;
  balance(): number;
  /** The carrier scanned the package (status posted, posted_at now). */
  markPosted(orderId: string): void;
  markDelivered(orderId: string): void;
  /** Builds a webhook for `orderId`'s current state without sending it. */
  webhook(
    targetUrl: string,
    event: FakeWebhookEvent,
    orderId: string,
    options?: WebhookOptions,
  ): WebhookRequest;
  /** Sends one webhook; throws if the target could not be reached. */
  notify(
    targetUrl: string,
    event: FakeWebhookEvent,
    orderId: string,
    options?: WebhookOptions,
  ): Promise<{ status: number; body: string }>;
  /** notify with a signature made with the wrong secret. */
  notifyForged(
    targetUrl: string,
    event: FakeWebhookEvent,
    orderId: string,
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** X-ME-Signature: base64 of HMAC-SHA256 over the raw body, keyed with the app secret (§7). */
export function signMelhorEnvioWebhook(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

const PICTURES = 'https://www.melhorenvio.com.br/images/shipping-companies';
export const FAKE_COMPANIES = {
  correios: { id: 1, name: 'Correios', picture: `${PICTURES}/correios.png` },
  jadlog: { id: 2, name: 'Jadlog', picture: `${PICTURES}/jadlog.png` },
} satisfies Record<string, FakeCompany>;

interface Tariff {
  name: string;
  company: FakeCompany;
  /** Cents for the first kilogram, then per started kilogram, then per CEP region crossed. */
  base: number;
  perKg: number;
  perRegion: number;
  days: number;
  daysPerRegion: number;
  maxKg: number;
  /** Longest side and sum of the three sides, in cm. */
  maxSide: number;
  maxSum: number;
}

// Made-up prices (ME's are a carrier contract, not public) with real limits' orders of magnitude, so
// a weight sent in grams or a box in millimetres gets refused as ME would refuse it.
const TARIFFS = new Map<number, Tariff>([
  [
    1,
    {
      name: 'PAC',
      company: FAKE_COMPANIES.correios,
      base: 1690,
      perKg: 420,
      perRegion: 180,
      days: 6,
      daysPerRegion: 1,
      maxKg: 30,
      maxSide: 100,
      maxSum: 200,
    },
  ],
  [
    2,
    {
      name: 'SEDEX',
      company: FAKE_COMPANIES.correios,
      base: 2590,
      perKg: 790,
      perRegion: 310,
      days: 2,
      daysPerRegion: 0.5,
      maxKg: 30,
      maxSide: 100,
      maxSum: 200,
    },
  ],
  [
    3,
    {
      name: '.Package',
      company: FAKE_COMPANIES.jadlog,
      base: 1850,
      perKg: 510,
      perRegion: 200,
      days: 5,
      daysPerRegion: 1,
      maxKg: 120,
      maxSide: 180,
      maxSum: 400,
    },
  ],
]);
/** Jadlog .Com refuses every route here: the fake's one standing `error` entry. */
const UNSERVED = { id: 4, name: '.Com', company: FAKE_COMPANIES.jadlog };
export const NO_ROUTE_ERROR = 'Transportadora não atende este trecho.';
export const OVERWEIGHT_ERROR = 'Peso excede o limite da transportadora.';
export const OVERSIZE_ERROR = 'Dimensões do objeto ultrapassam o limite da transportadora.';

/** How many of the eight CEP regions (first digit) separate origin and destination. */
const regions = (from: string, to: string) => Math.abs(Number(from[0]) - Number(to[0]));

/**
 * The fake's price for a service, in cents, so tests can compute what a quote will say: base +
 * perKg × (started kilograms beyond the first) + perRegion × regions crossed. Undefined for a
 * service that quotes no price (4, .Com).
 */
export function fakePriceCents(
  serviceId: number,
  weightKg: number,
  fromPostalCode: string,
  toPostalCode: string,
): number | undefined {
  const tariff = TARIFFS.get(serviceId);
  if (!tariff) return undefined;
  const extraKg = Math.max(0, Math.ceil(weightKg) - 1);
  return (
    tariff.base + tariff.perKg * extraKg + tariff.perRegion * regions(fromPostalCode, toPostalCode)
  );
}

/** The fake's delivery time in working days (delivery_range is one day shorter at its min). */
export function fakeDeliveryDays(
  serviceId: number,
  fromPostalCode: string,
  toPostalCode: string,
): number | undefined {
  const tariff = TARIFFS.get(serviceId);
  if (!tariff) return undefined;
  return tariff.days + Math.floor(tariff.daysPerRegion * regions(fromPostalCode, toPostalCode));
}

const money = (cents: number) => (cents / 100).toFixed(2);
const round2 = (value: number) => Math.round(value * 100) / 100;

/** ME writes dates in Brasília time without an offset, such as 2026-11-27 15:30:00 (§4.5). */
function meDate(at: number): string {
  return new Date(at - 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Refusals in ME's shapes (§6): a Laravel validation body, or a bare `error` string. */
class MeError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(JSON.stringify(body));
  }
}

type FieldErrors = Record<string, string[]>;

function invalid(errors: FieldErrors): MeError {
  return new MeError(422, { message: 'The given data was invalid.', errors });
}

const failureBody = (status: number): Record<string, unknown> =>
  status === 401
    ? { message: 'Unauthenticated.' }
    : status === 429
      ? { message: 'Too Many Attempts.' }
      : status >= 500
        ? { message: 'Server Error' }
        : { message: 'The given data was invalid.', errors: {} };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPositive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/** ME's pt-BR messages name a field with its underscores as spaces, as Laravel's do. */
const label = (field: string) => field.replace(/_/g, ' ');

function checkPostalCode(
  body: Record<string, unknown>,
  side: 'from' | 'to',
  errors: FieldErrors,
): string {
  const party = body[side];
  const code = isObject(party) ? party.postal_code : undefined;
  const field = `${side}.postal_code`;
  if (code === undefined || code === null || code === '') {
    errors[field] = [`O campo ${label(field)} é obrigatório.`];
    return '';
  }
  if (typeof code !== 'string' || !/^\d{8}$/.test(code)) {
    errors[field] = [`O campo ${label(field)} deve conter 8 dígitos.`];
    return '';
  }
  return code;
}

function checkVolume(value: unknown, field: string, errors: FieldErrors): FakeVolume | null {
  if (!isObject(value)) {
    errors[field] = [`O campo ${label(field)} deve ser um objeto.`];
    return null;
  }
  let ok = true;
  for (const key of ['height', 'width', 'length', 'weight'] as const) {
    if (!isPositive(value[key])) {
      errors[`${field}.${key}`] = [
        `O campo ${label(`${field}.${key}`)} deve ser um número maior que 0.`,
      ];
      ok = false;
    }
  }
  if (!ok) return null;
  return {
    height: value.height as number,
    width: value.width as number,
    length: value.length as number,
    weight: value.weight as number,
  };
}

/** What is being carried, as one box: ME packs products itself; the fake stacks them. */
interface Parcel {
  volume: FakeVolume;
  insurance: number;
}

function parcelOf(body: Record<string, unknown>, errors: FieldErrors): Parcel | null {
  const options = isObject(body.options) ? body.options : {};
  const declared = typeof options.insurance_value === 'number' ? options.insurance_value : 0;
  if (body.package !== undefined) {
    const volume = checkVolume(body.package, 'package', errors);
    return volume && { volume, insurance: declared };
  }
  if (body.volumes !== undefined) {
    const list = Array.isArray(body.volumes) ? body.volumes : [body.volumes];
    const volumes = list.map((each, index) => checkVolume(each, `volumes.${index}`, errors));
    if (volumes.length === 0 || volumes.some((each) => each === null)) return null;
    return { volume: stack(volumes as FakeVolume[]), insurance: declared };
  }
  if (body.products !== undefined) {
    if (!Array.isArray(body.products) || body.products.length === 0) {
      errors.products = ['O campo products deve ser uma lista com ao menos um item.'];
      return null;
    }
    const boxes: FakeVolume[] = [];
    let insurance = 0;
    body.products.forEach((product: unknown, index) => {
      const volume = checkVolume(product, `products.${index}`, errors);
      const quantity = isObject(product) ? (product.quantity ?? 1) : 1;
      if (!(Number.isInteger(quantity) && (quantity as number) >= 1)) {
        errors[`products.${index}.quantity`] = [
          `O campo products.${index}.quantity deve ser um inteiro maior que 0.`,
        ];
        return;
      }
      if (!volume || !isObject(product)) return;
      for (let n = 0; n < (quantity as number); n++) boxes.push(volume);
      if (typeof product.insurance_value === 'number')
        insurance += product.insurance_value * (quantity as number);
    });
    if (boxes.length === 0) return null;
    return { volume: stack(boxes), insurance: round2(insurance) };
  }
  errors.products = ['O campo products é obrigatório quando package não está presente.'];
  return null;
}

function stack(volumes: FakeVolume[]): FakeVolume {
  return {
    height: volumes.reduce((sum, each) => sum + each.height, 0),
    width: Math.max(...volumes.map((each) => each.width)),
    length: Math.max(...volumes.map((each) => each.length)),
    weight: round2(volumes.reduce((sum, each) => sum + each.weight, 0)),
  };
}

function quote(
  serviceId: number,
  tariff: Tariff,
  parcel: Parcel,
  from: string,
  to: string,
  extras: FakeQuoteOffer['additional_services'],
): FakeQuote {
  const { volume } = parcel;
  const company = tariff.company;
  if (volume.weight > tariff.maxKg)
    return { id: serviceId, name: tariff.name, error: OVERWEIGHT_ERROR, company };
  const sides = [volume.height, volume.width, volume.length];
  if (Math.max(...sides) > tariff.maxSide || sides.reduce((a, b) => a + b, 0) > tariff.maxSum) {
    return { id: serviceId, name: tariff.name, error: OVERSIZE_ERROR, company };
  }
  const price = money(fakePriceCents(serviceId, volume.weight, from, to)!);
  const days = fakeDeliveryDays(serviceId, from, to)!;
  const range = { min: days - 1, max: days };
  return {
    id: serviceId,
    name: tariff.name,
    price,
    custom_price: price,
    discount: '0.00',
    currency: 'R$',
    delivery_time: days,
    delivery_range: range,
    custom_delivery_time: days,
    custom_delivery_range: { ...range },
    packages: [
      {
        price,
        discount: '0.00',
        format: 'box',
        weight: volume.weight.toFixed(2),
        insurance_value: parcel.insurance.toFixed(2),
        dimensions: { height: volume.height, width: volume.width, length: volume.length },
      },
    ],
    additional_services: extras,
    company,
  };
}

/** `services` is a comma-separated list of ids, such as "1,2,17" (§3). */
function wantedServices(value: unknown): Set<number> | null {
  if (value === undefined || value === null || value === '') return null;
  return new Set(
    String(value)
      .split(',')
      .map((each) => Number(each.trim())),
  );
}

/** A label as small as a PDF reader accepts: the header is what our tests check. */
const LABEL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

const WEBHOOK_TIMEOUT_MS = 10_000;
const API_PREFIX = '/api/v2';
/** ME's documentation asks for "App name (contact e-mail)" (§2); undici alone sends "node". */
const USER_AGENT = /\(\s*[^()\s@]+@[^()\s@]+\.[^()\s@]+\s*\)/;

/** Starts the fake on a port the OS picks. Every /api/v2 route wants the bearer token. */
export async function startFakeMelhorEnvio(
  options: FakeMelhorEnvioOptions,
): Promise<FakeMelhorEnvio> {
  const requests: RecordedRequest[] = [];
  const orders = new Map<string, FakeOrder>();
  const webhooks: SentWebhook[] = [];
  const labels = new Map<string, { orders: string[]; mode: string }>();
  const failures = new Map<FakeRoute, number>();
  const delays = new Map<FakeRoute, number>();
  const closing = new AbortController();
  const userId = randomUUID();
  let overriddenQuotes: FakeQuote[] | null = null;
  let wallet = 0;
  let calculations = 0;
  let purchases = 0;
  // Random starts keep codes apart when several fakes write to one test database.
  let serial = randomInt(100_000, 900_000);
  let base = '';
  const clock = () => (options.now ?? (() => new Date()))().getTime();

  function order(id: string): FakeOrder {
    const found = orders.get(id);
    if (!found) throw new Error(`No Melhor Envio order ${id} at the fake`);
    return found;
  }

  function calculate(body: unknown): FakeQuote[] {
    if (!isObject(body)) throw invalid({ from: ['O campo from é obrigatório.'] });
    const errors: FieldErrors = {};
    const from = checkPostalCode(body, 'from', errors);
    const to = checkPostalCode(body, 'to', errors);
    const parcel = parcelOf(body, errors);
    if (Object.keys(errors).length > 0 || !parcel) throw invalid(errors);
    const wanted = wantedServices(body.services);
    const keep = (each: FakeQuote) => wanted === null || wanted.has(each.id);
    if (overriddenQuotes) return overriddenQuotes.filter(keep);
    const opts = isObject(body.options) ? body.options : {};
    const extras = {
      receipt: opts.receipt === true,
      own_hand: opts.own_hand === true,
      collect: opts.collect === true,
    };
    const quotes: FakeQuote[] = [...TARIFFS].map(([id, tariff]) =>
      quote(id, tariff, parcel, from, to, extras),
    );
    quotes.push({ ...UNSERVED, error: NO_ROUTE_ERROR });
    return quotes.filter(keep);
  }

  const PARTY_FIELDS = ['name', 'address', 'number', 'district', 'city', 'state_abbr'] as const;

  function addToCart(body: unknown): FakeOrder {
    if (!isObject(body)) throw invalid({ service: ['O campo service é obrigatório.'] });
    const errors: FieldErrors = {};
    const serviceId = body.service;
    const tariff = typeof serviceId === 'number' ? TARIFFS.get(serviceId) : undefined;
    if (!tariff) errors.service = ['O serviço selecionado é inválido.'];
    for (const side of ['from', 'to'] as const) {
      const party = body[side];
      if (!isObject(party)) {
        errors[side] = [`O campo ${side} é obrigatório.`];
        continue;
      }
      for (const key of PARTY_FIELDS) {
        if (typeof party[key] !== 'string' || party[key] === '') {
          errors[`${side}.${key}`] = [`O campo ${label(`${side}.${key}`)} é obrigatório.`];
        }
      }
      if (typeof party.state_abbr === 'string' && !/^[A-Z]{2}$/.test(party.state_abbr)) {
        errors[`${side}.state_abbr`] = [
          `O campo ${label(`${side}.state_abbr`)} deve ser a sigla do estado.`,
        ];
      }
      const document = party.document ?? party.company_document;
      const digits = typeof document === 'string' ? document.replace(/\D/g, '') : '';
      if (digits.length !== 11 && digits.length !== 14) {
        errors[`${side}.document`] = [
          `O campo ${label(`${side}.document`)} deve ser um CPF ou CNPJ válido.`,
        ];
      }
    }
    const from = checkPostalCode(body, 'from', errors);
    const to = checkPostalCode(body, 'to', errors);
    if (!Array.isArray(body.products) || body.products.length === 0) {
      errors.products = ['O campo products é obrigatório.'];
    }
    const volumeList = Array.isArray(body.volumes)
      ? body.volumes
      : body.volumes === undefined
        ? []
        : [body.volumes];
    if (volumeList.length === 0) errors.volumes = ['O campo volumes é obrigatório.'];
    const volumes = volumeList.map((each, index) => checkVolume(each, `volumes.${index}`, errors));
    const opts = isObject(body.options) ? body.options : {};
    if (typeof opts.insurance_value !== 'number' || opts.insurance_value < 0) {
      errors['options.insurance_value'] = ['O campo options.insurance value é obrigatório.'];
    }
    const nonCommercial = opts.non_commercial === true;
    const invoiceKey =
      isObject(opts.invoice) && typeof opts.invoice.key === 'string' ? opts.invoice.key : null;
    if (!nonCommercial && invoiceKey === null) {
      errors['options.invoice.key'] = [
        'O campo options.invoice.key é obrigatório para envios comerciais.',
      ];
    } else if (!nonCommercial && !/^\d{44}$/.test(invoiceKey ?? '')) {
      errors['options.invoice.key'] = ['A chave da nota fiscal deve ter 44 dígitos.'];
    }
    if (Object.keys(errors).length > 0 || !tariff) throw invalid(errors);
    const parcel = {
      volume: stack(volumes as FakeVolume[]),
      insurance: opts.insurance_value as number,
    };
    const offered = quote(serviceId as number, tariff, parcel, from, to, {
      receipt: opts.receipt === true,
      own_hand: opts.own_hand === true,
      collect: opts.collect === true,
    });
    if ('error' in offered) throw new MeError(422, { error: offered.error });
    const now = meDate(clock());
    const made: FakeOrder = {
      id: randomUUID(),
      protocol: `ORD-${now.slice(0, 7).replace('-', '')}${String(serial++).padStart(8, '0')}`,
      service_id: serviceId as number,
      agency_id: typeof body.agency === 'number' ? body.agency : null,
      price: Number(offered.price),
      discount: 0,
      delivery_min: offered.delivery_range.min,
      delivery_max: offered.delivery_range.max,
      status: 'pending',
      insurance_value: opts.insurance_value as number,
      format: 'box',
      receipt: opts.receipt === true,
      own_hand: opts.own_hand === true,
      collect: opts.collect === true,
      reverse: opts.reverse === true,
      non_commercial: nonCommercial,
      invoice_key: nonCommercial ? null : invoiceKey,
      tracking: null,
      self_tracking: null,
      from: body.from as Record<string, unknown>,
      to: body.to as Record<string, unknown>,
      products: body.products as unknown[],
      volumes: volumes as FakeVolume[],
      tags: Array.isArray(opts.tags)
        ? opts.tags.filter(isObject).map((each) => ({
            tag: String(each.tag ?? ''),
            url: typeof each.url === 'string' ? each.url : null,
          }))
        : [],
      created_at: now,
      updated_at: now,
      paid_at: null,
      generated_at: null,
      posted_at: null,
      delivered_at: null,
      canceled_at: null,
      expired_at: null,
    };
    orders.set(made.id, made);
    return made;
  }

  function orderIds(body: unknown): string[] {
    const list = isObject(body) ? body.orders : undefined;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((each) => typeof each === 'string')
    ) {
      throw invalid({ orders: ['O campo orders é obrigatório.'] });
    }
    const unknown = list.find((each) => !orders.has(each));
    if (unknown !== undefined)
      throw invalid({ orders: [`O envio ${unknown} não foi encontrado.`] });
    return list;
  }

  function checkout(body: unknown) {
    const ids = orderIds(body);
    const chosen = ids.map(order);
    const unpaid = chosen.find((each) => each.status !== 'pending');
    if (unpaid)
      throw new MeError(422, { error: `O envio ${unpaid.protocol} não está no carrinho.` });
    const total = round2(chosen.reduce((sum, each) => sum + each.price, 0));
    if (wallet < total) {
      throw new MeError(422, {
        error: `Seu saldo de R$ ${wallet.toFixed(2)} é insuficiente para o pagamento com a carteira no valor de R$ ${total.toFixed(2)}`,
      });
    }
    wallet = round2(wallet - total);
    purchases++;
    const now = meDate(clock());
    for (const each of chosen) {
      each.status = 'released';
      each.paid_at = now;
      each.updated_at = now;
    }
    return {
      purchase: {
        id: randomUUID(),
        protocol: `PUR-${now.slice(0, 7).replace('-', '')}${String(serial++).padStart(8, '0')}`,
        total,
        discount: 0,
        status: 'paid',
        paid_at: now,
        canceled_at: null,
        created_at: now,
        updated_at: now,
        payment: null,
        transactions: [
          {
            id: randomUUID(),
            protocol: `TRN-${String(serial++).padStart(8, '0')}`,
            value: total,
            type: 'debit',
            status: 'authorized',
            description: 'Pagamento de envios',
            authorized_at: now,
            unauthorized_at: null,
            reserved_at: null,
            canceled_at: null,
            created_at: now,
          },
        ],
        orders: chosen,
        paypal_discounts: [],
      },
      digitable: null,
      redirect: null,
      message: null,
      token: null,
      payment_id: null,
    };
  }

  function trackingCode(target: FakeOrder): string {
    const digits = String(serial++).padStart(9, '0').slice(-9);
    return TARIFFS.get(target.service_id)?.company.id === FAKE_COMPANIES.correios.id
      ? `AA${digits}BR`
      : `1${digits}0001`;
  }

  function generate(body: unknown) {
    const answer: Record<string, { status: boolean; message: string }> = {};
    for (const id of orderIds(body)) {
      const target = order(id);
      if (target.status === 'pending') {
        answer[id] = { status: false, message: 'O envio ainda não foi pago.' };
      } else if (target.status !== 'released') {
        answer[id] = { status: false, message: 'O envio já está gerado' };
      } else {
        const now = meDate(clock());
        target.status = 'generated';
        target.generated_at = now;
        target.updated_at = now;
        target.tracking = trackingCode(target);
        target.self_tracking = `ME${now.slice(2, 4)}${String(serial++).padStart(6, '0').slice(-6)}BR`;
        answer[id] = { status: true, message: 'Envio gerado com sucesso' };
      }
    }
    return answer;
  }

  function print(body: unknown) {
    const ids = orderIds(body);
    const notReady = ids.map(order).find((each) => each.generated_at === null);
    if (notReady)
      throw new MeError(422, {
        error: `A etiqueta do envio ${notReady.protocol} ainda não foi gerada.`,
      });
    const mode = isObject(body) && body.mode === 'public' ? 'public' : 'private';
    const key = randomUUID().replace(/-/g, '');
    labels.set(key, { orders: ids, mode });
    return { url: `${base}/imprimir/${key}` };
  }

  function tracking(body: unknown) {
    const answer: Record<string, unknown> = {};
    for (const id of orderIds(body)) {
      const target = order(id);
      answer[id] = {
        id: target.id,
        protocol: target.protocol,
        status: target.status,
        tracking: target.tracking,
        melhorenvio_tracking: target.self_tracking,
        created_at: target.created_at,
        paid_at: target.paid_at,
        generated_at: target.generated_at,
        posted_at: target.posted_at,
        delivered_at: target.delivered_at,
        canceled_at: target.canceled_at,
        expired_at: target.expired_at,
      };
    }
    return answer;
  }

  const serviceList = () =>
    [...TARIFFS, [UNSERVED.id, { name: UNSERVED.name, company: UNSERVED.company }] as const].map(
      ([id, tariff]) => ({
        id,
        name: tariff.name,
        type: id === 2 ? 'express' : 'normal',
        range: 'interstate',
        restrictions: {},
        requirements:
          id === 3 || id === 4
            ? ['names', 'addresses', 'documents', 'invoice', 'agency']
            : ['names', 'addresses'],
        optionals: id === 1 || id === 2 ? ['AR', 'MP', 'VD'] : ['VD'],
        company: tariff.company,
      }),
    );

  async function route(seen: RecordedRequest, response: ServerResponse): Promise<void> {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      response
        .writeHead(status, { 'Content-Type': 'application/json', ...headers })
        .end(JSON.stringify(body));
    };
    const authorized = seen.headers.authorization === `Bearer ${options.token}`;
    const { method, path } = seen;

    const printed = /^\/imprimir\/([0-9a-f]{32})$/.exec(path);
    if (method === 'GET' && printed) {
      const found = labels.get(printed[1]!);
      // A private link only opens for the account that bought the label (§4.4).
      if (!found || (found.mode === 'private' && !authorized))
        return json(404, { message: 'Not Found' });
      response
        .writeHead(200, {
          'Content-Type': 'application/pdf',
          'Content-Length': String(LABEL_PDF.length),
        })
        .end(LABEL_PDF);
      return;
    }
    if (!path.startsWith(`${API_PREFIX}/`)) return json(404, { message: 'Not Found' });
    if (!authorized) return json(401, { message: 'Unauthenticated.' });
    if (!USER_AGENT.test(seen.headers['user-agent'] ?? '')) {
      return json(400, {
        message:
          'User-Agent must name the application and a contact e-mail, e.g. "Vitrine (dev@vitrine.com.br)".',
      });
    }
    const local = path.slice(API_PREFIX.length) as FakeRoute;
    if (method === 'POST' && local === '/me/shipment/calculate') calculations++;
    const delay = delays.get(local) ?? 0;
    if (delay > 0) await sleep(delay, undefined, { signal: closing.signal }).catch(() => {});
    const failure = failures.get(local);
    if (failure !== undefined) {
      return json(failure, failureBody(failure), failure === 429 ? { 'Retry-After': '60' } : {});
    }
    try {
      if (method === 'POST' && local === '/me/shipment/calculate')
        return json(200, calculate(seen.body));
      if (method === 'GET' && path === `${API_PREFIX}/me/shipment/services`)
        return json(200, serviceList());
      if (method === 'POST' && local === '/me/cart') return json(201, addToCart(seen.body));
      if (method === 'POST' && local === '/me/shipment/checkout')
        return json(200, checkout(seen.body));
      if (method === 'POST' && local === '/me/shipment/generate')
        return json(200, generate(seen.body));
      if (method === 'POST' && local === '/me/shipment/print') return json(200, print(seen.body));
      if (method === 'POST' && local === '/me/shipment/tracking')
        return json(200, tracking(seen.body));
      if (method === 'GET' && path === `${API_PREFIX}/me/balance`) {
        return json(200, { balance: wallet, reserved: 0, debts: 0 });
      }
      if (method === 'GET' && path === `${API_PREFIX}/me`) {
        return json(200, {
          id: userId,
          firstname: 'Loja',
          lastname: 'Vitrine',
          email: 'loja@vitrine.test',
        });
      }
      const one = /^\/api\/v2\/me\/(?:cart|orders)\/([0-9a-f-]{36})$/.exec(path);
      if (method === 'GET' && one) {
        const found = orders.get(one[1]!);
        if (!found) return json(404, { message: 'No query results for model [App\\Order].' });
        return json(200, found);
      }
      return json(404, { message: `No route ${method} ${path} at the fake Melhor Envio` });
    } catch (error) {
      if (!(error instanceof MeError)) throw error;
      return json(error.status, error.body);
    }
  }

  function webhook(
    targetUrl: string,
    event: FakeWebhookEvent,
    orderId: string,
    opts: WebhookOptions = {},
  ): WebhookRequest {
    const target = order(orderId);
    const body = JSON.stringify({
      event,
      data: {
        id: target.id,
        protocol: target.protocol,
        status: target.status,
        tracking: target.tracking,
        self_tracking: target.self_tracking,
        user_id: userId,
        tags: target.tags,
        tracking_url: target.self_tracking
          ? `https://www.melhorrastreio.com.br/rastreio/${target.self_tracking}`
          : null,
        created_at: target.created_at,
        paid_at: target.paid_at,
        generated_at: target.generated_at,
        posted_at: target.posted_at,
        delivered_at: target.delivered_at,
        canceled_at: target.canceled_at,
        expired_at: target.expired_at,
      },
    });
    const secret = options.webhookSecret;
    if (secret === undefined && opts.signature === undefined) {
      throw new Error('startFakeMelhorEnvio needs a webhookSecret to sign webhooks');
    }
    // Same length and alphabet as a real signature, so a verifier's length check cannot reject it
    // before the comparison itself is tested.
    const signature =
      opts.signature !== undefined
        ? opts.signature
        : signMelhorEnvioWebhook(body, opts.forge ? `${secret}-forged` : secret!);
    return {
      url: targetUrl,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'MelhorEnvio-Webhook',
        ...(signature === null ? {} : { 'x-me-signature': signature }),
      },
      body,
    };
  }

  async function deliver(call: WebhookRequest): Promise<{ status: number; body: string }> {
    const sent: SentWebhook = { ...call };
    webhooks.push(sent);
    try {
      const answer = await fetch(call.url, {
        method: 'POST',
        headers: call.headers,
        body: call.body,
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
      });
      sent.status = answer.status;
      sent.answer = await answer.text();
      return { status: sent.status, body: sent.answer };
    } catch (error) {
      sent.error = String(error);
      throw new Error(`Webhook to ${call.url} failed: ${sent.error}`);
    }
  }

  const server = createServer((request, response) => {
    void recordRequest(request, 'http://melhorenvio.test')
      .then((seen) => {
        requests.push(seen);
        return route(seen, response);
      })
      .catch((error: unknown) => {
        // A bug in the fake should fail the test that met it, not crash the test process.
        console.error('fake Melhor Envio:', error);
        if (!response.headersSent) {
          response
            .writeHead(500, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ message: String(error) }));
        }
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function move(orderId: string, status: 'posted' | 'delivered'): void {
    const target = order(orderId);
    if (target.generated_at === null) throw new Error(`Order ${orderId} has no label yet`);
    const now = meDate(clock());
    target.status = status;
    target.updated_at = now;
    if (status === 'posted') target.posted_at = now;
    else target.delivered_at = now;
  }

  return {
    url: `${base}${API_PREFIX}`,
    requests,
    orders,
    webhooks,
    calculateCalls: () => calculations,
    purchaseCalls: () => purchases,
    setDelay(ms, at = '/me/shipment/calculate') {
      delays.set(at, ms);
    },
    setFailure(status, at = '/me/shipment/calculate') {
      if (status === null) failures.delete(at);
      else failures.set(at, status);
    },
    setServices(quotes) {
      overriddenQuotes = quotes;
    },
    setBalance(reais) {
      wallet = round2(reais);
    },
    balance: () => wallet,
    markPosted: (orderId) => move(orderId, 'posted'),
    markDelivered(orderId) {
      if (order(orderId).posted_at === null) move(orderId, 'posted');
      move(orderId, 'delivered');
    },
    webhook,
    notify: (targetUrl, event, orderId, opts) => deliver(webhook(targetUrl, event, orderId, opts)),
    notifyForged: (targetUrl, event, orderId) =>
      deliver(webhook(targetUrl, event, orderId, { forge: true })),
    async close() {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
