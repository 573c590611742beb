import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  noticeManifest,
  NOTICE_TOLERANCE_SECONDS,
  readMercadoPagoNotice,
} from './mercadopago-notice.server';

const SECRET = 'whsec_e2e_5b7c1d';
const NOW = new Date('2026-11-27T15:00:00Z');
const TS = String(Math.floor(NOW.getTime() / 1000));
const REQUEST_ID = '7f8e2c1a-3b4d-4e5f-9a0b-1c2d3e4f5a6b';
const PAYMENT_ID = '1327410519';

function sign(manifest: string, secret = SECRET): string {
  return createHmac('sha256', secret).update(manifest).digest('hex');
}

/** A notification as Mercado Pago sends it, with any part replaced. */
function notice(
  change: {
    query?: string;
    ts?: string;
    v1?: string;
    signature?: string | null;
    requestId?: string | null;
    body?: string;
  } = {},
) {
  const query = change.query ?? `source_news=webhooks&data.id=${PAYMENT_ID}&type=payment`;
  const url = new URL(`https://loja.test/api/payments/mercadopago?${query}`);
  const ts = change.ts ?? TS;
  const requestId = change.requestId === undefined ? REQUEST_ID : change.requestId;
  const dataId = url.searchParams.get('data.id') ?? '';
  const v1 = change.v1 ?? sign(noticeManifest(dataId, requestId ?? '', ts));
  const headers = new Headers({ 'content-type': 'application/json' });
  if (requestId !== null) headers.set('x-request-id', requestId);
  const signature = change.signature === undefined ? `ts=${ts},v1=${v1}` : change.signature;
  if (signature !== null) headers.set('x-signature', signature);
  const body =
    change.body ??
    JSON.stringify({
      id: 12345,
      live_mode: false,
      type: 'payment',
      action: 'payment.updated',
      data: { id: PAYMENT_ID },
    });
  return { url, headers, body };
}

const read = (given: ReturnType<typeof notice>, now = NOW) =>
  readMercadoPagoNotice(given, SECRET, now);

describe('readMercadoPagoNotice', () => {
  it('builds the manifest Mercado Pago signs, leaving out what did not come', () => {
    expect(noticeManifest('123', 'req-1', '1704908010')).toBe(
      'id:123;request-id:req-1;ts:1704908010;',
    );
    expect(noticeManifest('', 'req-1', '1')).toBe('request-id:req-1;ts:1;');
    expect(noticeManifest('123', '', '1')).toBe('id:123;ts:1;');
  });

  it('takes a correctly signed notification and names its payment', () => {
    expect(read(notice())).toEqual({ ok: true, paymentId: PAYMENT_ID });
    // Spaces around the pairs, and a signature without the request id when none came.
    expect(
      read(
        notice({
          signature: ` ts = ${TS} , v1 = ${sign(`id:${PAYMENT_ID};request-id:${REQUEST_ID};ts:${TS};`)} `,
        }),
      ),
    ).toEqual({
      ok: true,
      paymentId: PAYMENT_ID,
    });
    expect(read(notice({ requestId: null }))).toEqual({ ok: true, paymentId: PAYMENT_ID });
  });

  it('refuses with 401 what is unsigned, forged or signed with another secret', () => {
    const refused = { ok: false, status: 401 };
    expect(read(notice({ signature: null }))).toMatchObject(refused);
    expect(read(notice({ signature: 'v1=abc' }))).toMatchObject(refused);
    expect(read(notice({ signature: `ts=${TS}` }))).toMatchObject(refused);
    expect(read(notice({ v1: 'zz' }))).toMatchObject(refused);
    expect(read(notice({ v1: '0'.repeat(64) }))).toMatchObject({
      ...refused,
      error: 'Assinatura da notificação inválida.',
    });
    const otherSecret = sign(noticeManifest(PAYMENT_ID, REQUEST_ID, TS), 'another');
    expect(read(notice({ v1: otherSecret }))).toMatchObject(refused);
  });

  it('refuses a signature moved to another payment, request or time', () => {
    const signed = notice();
    const v1 = sign(noticeManifest(PAYMENT_ID, REQUEST_ID, TS));
    expect(read(notice({ v1, query: 'data.id=1327410520&type=payment' }))).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(read(notice({ v1, requestId: 'another-request' }))).toMatchObject({ status: 401 });
    expect(read(notice({ v1, ts: String(Number(TS) + 1) }))).toMatchObject({ status: 401 });
    expect(read(signed)).toMatchObject({ ok: true });
  });

  it('refuses a replay older than the tolerance, and one from the future', () => {
    const late = new Date(NOW.getTime() + (NOTICE_TOLERANCE_SECONDS + 1) * 1000);
    expect(read(notice(), late)).toMatchObject({
      ok: false,
      status: 401,
      error: 'Notificação fora do prazo.',
    });
    const early = new Date(NOW.getTime() - (NOTICE_TOLERANCE_SECONDS + 1) * 1000);
    expect(read(notice(), early)).toMatchObject({ ok: false, status: 401 });
    // A timestamp in milliseconds means the same instant.
    expect(read(notice({ ts: String(NOW.getTime()) }))).toEqual({
      ok: true,
      paymentId: PAYMENT_ID,
    });
  });

  it('refuses with 400 a signed notification whose body is not JSON or names another payment', () => {
    expect(read(notice({ body: '{not json' }))).toMatchObject({ ok: false, status: 400 });
    expect(
      read(notice({ body: JSON.stringify({ type: 'payment', data: { id: '999' } }) })),
    ).toMatchObject({ ok: false, status: 400 });
    expect(read(notice({ body: '' }))).toEqual({ ok: true, paymentId: PAYMENT_ID });
  });

  it('acts on payments only, with a numeric id', () => {
    const chargeback = JSON.stringify({ type: 'topic_chargebacks_wh', data: { id: '55' } });
    expect(
      read(notice({ query: 'data.id=55&type=topic_chargebacks_wh', body: chargeback })),
    ).toEqual({
      ok: true,
      paymentId: null,
    });
    expect(
      read(
        notice({
          query: 'data.id=abc&type=payment',
          body: JSON.stringify({ type: 'payment', data: { id: 'abc' } }),
        }),
      ),
    ).toMatchObject({ ok: false, status: 400 });
  });
});
