// Plain values only: the product page's form imports this, and must not bring zod along (the
// form's schema is in restock.server.ts).

/** The texts of 'Avise-me quando chegar', shared by the form, its route and the admin. */
export const RESTOCK_MESSAGES = {
  email: 'Informe um e-mail válido.',
  product: 'Produto não encontrado.',
  inStock: 'Este produto já está disponível. Aproveite!',
  busy: 'Muitos pedidos de aviso em pouco tempo. Aguarde um minuto e tente de novo.',
  /** After a request without JavaScript, when the shopper's address is no longer at hand. */
  done: 'Quase lá! Abra o e-mail que enviamos e confirme o pedido: só avisaremos quando o produto voltar ao estoque depois dessa confirmação.',
  doneFor: (email: string) =>
    `Quase lá! Abra o e-mail que enviamos para ${email} e confirme o pedido: só avisaremos quando o produto voltar ao estoque depois dessa confirmação.`,
} as const;

/** The confirmation page (`/avise-me/confirmar?chave=…`), reached from the e-mail's link. */
export const RESTOCK_CONFIRM_PATH = '/avise-me/confirmar';
export const RESTOCK_CONFIRM_PARAM = 'chave';

export const RESTOCK_CONFIRM_MESSAGES = {
  title: 'Confirmar aviso',
  ask: (email: string, product: string) =>
    `Confirme que ${email} quer receber um e-mail quando ${product} voltar ao estoque.`,
  button: 'Confirmar',
  confirmed: (email: string, product: string) =>
    `Aviso confirmado! Enviaremos um e-mail para ${email} quando ${product} voltar ao estoque.`,
  invalid:
    'Este link de confirmação não vale mais: ele expira em 7 dias, e só o do e-mail mais recente funciona. Peça o aviso de novo na página do produto.',
} as const;

/** Longest e-mail address (RFC 5321's path limit). */
export const RESTOCK_EMAIL_MAX = 254;

/** The product page's query after a request sent without JavaScript: `?aviso=…`. */
export const RESTOCK_NOTICE_PARAM = 'aviso';
export const RESTOCK_NOTICES = { done: 'ok', badEmail: 'email-invalido' } as const;

/** One request as staff see it on the product's page in the admin. */
export interface RestockRequestItem {
  email: string;
  /** Written on the server in the store's time zone. */
  createdAt: string;
}

/** The open requests of one product: how many are confirmed, the newest of them, and how many wait. */
export interface RestockRequestSummary {
  open: number;
  /** Requests whose address has not confirmed yet: no e-mail goes to them. */
  unconfirmed: number;
  requests: RestockRequestItem[];
}

/** Most requests listed on the product's admin page (the count says how many there are). */
export const RESTOCK_LIST_LIMIT = 50;

/** '3 clientes pediram aviso quando chegar' */
export function restockCountSentence(count: number): string {
  return count === 1
    ? '1 cliente pediu aviso quando chegar'
    : `${count} clientes pediram aviso quando chegar`;
}

/** '2 pedidos aguardam a confirmação do e-mail (sem ela, não recebem o aviso)' */
export function restockUnconfirmedSentence(count: number): string {
  return count === 1
    ? '1 pedido aguarda a confirmação do e-mail (sem ela, não recebe o aviso).'
    : `${count} pedidos aguardam a confirmação do e-mail (sem ela, não recebem o aviso).`;
}
