import type express from 'express';

/**
 * A short pt-BR page for answers given before (or instead of) the store's own pages: refused
 * requests and failures. It echoes nothing from the request.
 */
export function sendErrorPage(res: express.Response, status: number, message: string): void {
  res
    .status(status)
    .type('html')
    .set('Cache-Control', 'no-store')
    .send(
      `<!doctype html><html lang="pt-BR"><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${message}</title><p>${message}</p>` +
        `<p><a href="/">Ir para a página inicial</a></p></html>`,
    );
}

/**
 * Refuses a request with a 4xx. The reason goes on the request's one log line (at warn, with no
 * stack: a flood of junk must not fill the disk with stacks).
 */
export function refuse(
  res: express.Response,
  status: number,
  message: string,
  reason: string,
): void {
  res.locals.refused = reason;
  // The rest of an unread body is left to Node, which discards it (within REQUEST_TIMEOUT_MS)
  // before the connection serves another request. Closing at once instead would reset a client
  // still sending, and the reset can destroy the answer before the client reads it.
  sendErrorPage(res, status, message);
}

export const MESSAGES = {
  badAddress: 'Endereço inválido. Confira o link ou volte para a loja.',
  tooLarge: 'O envio é grande demais.',
  failed: 'Algo deu errado. Tente novamente em instantes.',
  methodNotAllowed: 'Método não permitido.',
} as const;

/**
 * What escapes a route: Express's own refusals (a path with broken percent-encoding is a 400)
 * keep their status; anything else is a logged 500. Never a crash, never Express's English page.
 */
export const errorPage: express.ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) return next(error);
  const status = Number((error as { status?: unknown }).status);
  if (status >= 400 && status < 500) {
    refuse(res, status, MESSAGES.badAddress, (error as Error).message);
    return;
  }
  req.log.error({ err: error }, 'Request failed');
  sendErrorPage(res, 500, MESSAGES.failed);
};
