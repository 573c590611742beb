import { z } from 'zod';

import { callOutsideService, OutsideServiceError } from '~/lib/http-client.server';

/** What a check of a Mercado Pago token tells staff: the account's name, or why it failed. */
export type MercadoPagoAccountCheck = { ok: true; account: string } | { ok: false; error: string };

const accountSchema = z.object({
  nickname: z.string().optional(),
  email: z.string().optional(),
  site_id: z.string().optional(),
});

export const MERCADOPAGO_ACCOUNT_MESSAGES = {
  refused:
    'O Mercado Pago recusou o token de acesso. Copie de novo o Access Token de produção ' +
    '(Suas integrações > Credenciais).',
  unreachable:
    'Não foi possível falar com o Mercado Pago agora. Tente salvar de novo em instantes.',
  notBrazil:
    'Esta conta do Mercado Pago não é do Brasil: a loja cobra em reais e precisa de uma conta brasileira.',
} as const;

/**
 * Reads the account a token belongs to (GET /users/me), the cheapest call that proves the token
 * works: run when staff save it, so a mistyped token is said at once and not at a shopper's
 * checkout.
 */
export async function checkMercadoPagoAccount(options: {
  apiUrl: string;
  accessToken: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): Promise<MercadoPagoAccountCheck> {
  let answer;
  try {
    answer = await callOutsideService(`${options.apiUrl.replace(/\/+$/, '')}/users/me`, {
      service: 'mercadopago',
      headers: { Authorization: `Bearer ${options.accessToken}`, Accept: 'application/json' },
      timeoutMs: options.timeoutMs ?? 10_000,
      maxResponseBytes: 64 * 1024,
      secrets: [options.accessToken],
      retries: 1,
      fetch: options.fetch,
    });
  } catch (error) {
    if (error instanceof OutsideServiceError) {
      return { ok: false, error: MERCADOPAGO_ACCOUNT_MESSAGES.unreachable };
    }
    throw error;
  }
  if (answer.status === 401 || answer.status === 403) {
    return { ok: false, error: MERCADOPAGO_ACCOUNT_MESSAGES.refused };
  }
  let parsed;
  try {
    parsed = answer.ok ? accountSchema.safeParse(JSON.parse(answer.text)) : null;
  } catch {
    parsed = null;
  }
  if (!parsed?.success) return { ok: false, error: MERCADOPAGO_ACCOUNT_MESSAGES.unreachable };
  if (parsed.data.site_id !== undefined && parsed.data.site_id !== 'MLB') {
    return { ok: false, error: MERCADOPAGO_ACCOUNT_MESSAGES.notBrazil };
  }
  return { ok: true, account: parsed.data.nickname ?? parsed.data.email ?? 'Mercado Pago' };
}
