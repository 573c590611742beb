import { callOutsideService, OutsideServiceError } from '~/lib/http-client.server';

/** What a check of a Melhor Envio token tells staff: it works, or why not. */
export type MelhorEnvioAccountCheck = { ok: true } | { ok: false; error: string };

export const MELHOR_ENVIO_ACCOUNT_MESSAGES = {
  refused: 'O Melhor Envio recusou o token. Gere um novo em Integrações › Permissões de acesso.',
  unreachable:
    'Não foi possível falar com o Melhor Envio agora. Tente salvar de novo em instantes.',
  noContact:
    'O Melhor Envio exige que a loja se identifique com um e-mail: preencha o e-mail em ' +
    'Configurações › Contato antes de conectar.',
  other: (status: number) =>
    `O Melhor Envio não aceitou o token (erro ${status}). Confira se ele tem a permissão de ` +
    'ler o saldo (Integrações › Permissões de acesso).',
} as const;

/**
 * Reads the account's balance (GET /me/balance), the cheapest call that proves the token works:
 * run when staff save it, so a mistyped or revoked token is said at once and not at a shopper's
 * checkout or a label's purchase.
 */
export async function checkMelhorEnvioAccount(options: {
  apiUrl: string;
  token: string;
  /** As the quotes and labels will send it: Melhor Envio refuses a call that names no e-mail. */
  userAgent: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): Promise<MelhorEnvioAccountCheck> {
  let answer;
  try {
    answer = await callOutsideService(`${options.apiUrl.replace(/\/+$/, '')}/me/balance`, {
      service: 'melhorenvio',
      headers: {
        Authorization: `Bearer ${options.token}`,
        Accept: 'application/json',
        'User-Agent': options.userAgent,
      },
      timeoutMs: options.timeoutMs ?? 10_000,
      maxResponseBytes: 64 * 1024,
      secrets: [options.token],
      retries: 1,
      fetch: options.fetch,
    });
  } catch (error) {
    if (error instanceof OutsideServiceError) {
      return { ok: false, error: MELHOR_ENVIO_ACCOUNT_MESSAGES.unreachable };
    }
    throw error;
  }
  if (answer.status === 401) return { ok: false, error: MELHOR_ENVIO_ACCOUNT_MESSAGES.refused };
  if (answer.status === 429 || answer.status >= 500) {
    return { ok: false, error: MELHOR_ENVIO_ACCOUNT_MESSAGES.unreachable };
  }
  if (!answer.ok) return { ok: false, error: MELHOR_ENVIO_ACCOUNT_MESSAGES.other(answer.status) };
  return { ok: true };
}
