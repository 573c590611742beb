// Plain values only: the order history's form imports this, and must not bring zod along (the
// form's schema is in lookup.server.ts).

/** The texts of 'Encontrar meu pedido' on the order history, shared by the form and its route. */
export const ORDER_LOOKUP_MESSAGES = {
  /** The one answer, whether or not an order matched: the page never says which. */
  sent: 'Se encontrarmos um pedido com esses dados, enviaremos o link para o e-mail cadastrado.',
  contact: 'Informe o e-mail ou o CPF usado no pedido.',
  contactInvalid: 'Informe um e-mail ou um CPF válido.',
  number: 'Informe o número do pedido.',
  numberInvalid: 'Informe o número do pedido, como #1001.',
  busy: (wait: string) => `Muitas buscas de pedido em pouco tempo. Tente de novo em ${wait}.`,
} as const;

/** Longest e-mail address (RFC 5321's path limit); a CPF is shorter. */
export const ORDER_LOOKUP_CONTACT_MAX = 254;
export const ORDER_LOOKUP_NUMBER_MAX = 20;

/** The history's query after a search sent without JavaScript: `?busca=enviada`. */
export const ORDER_LOOKUP_NOTICE_PARAM = 'busca';
export const ORDER_LOOKUP_SENT = 'enviada';
/** The form's place on the page, where the browser lands after it. */
export const ORDER_LOOKUP_ANCHOR = 'encontrar-pedido';
