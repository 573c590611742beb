import { countOf } from '~/lib/plural';

/**
 * A named limit. Plain limits allow `limit` attempts per window, counted from the first one.
 * With `maxLockMs`, the limit is on guesses: the attempt that reaches the limit locks the key for
 * a window, and each attempt let through after a lock locks it again for twice as long, up to
 * `maxLockMs`; the count is forgotten a window after the last lock ends (or at once on success).
 */
export interface RateLimitPolicy {
  /** The start of every key, and the limit's name in logs. */
  name: string;
  limit: number;
  windowMs: number;
  maxLockMs?: number;
}

const MINUTE = 60_000;

/** Every limit of the store (the README lists them). */
export const RATE_LIMITS = {
  /** Admin password checks (sign-in, change of password) for one e-mail from one address. */
  passwordForAccount: {
    name: 'password',
    limit: 5,
    windowMs: 15 * MINUTE,
    maxLockMs: 4 * 60 * MINUTE,
  },
  /** Admin password checks from one address, whatever the e-mail. */
  passwordForAddress: {
    name: 'password-address',
    limit: 20,
    windowMs: 15 * MINUTE,
    maxLockMs: 4 * 60 * MINUTE,
  },
  /** Setup codes ('Criar administrador') from one address. */
  setupCode: { name: 'setup-code', limit: 5, windowMs: 15 * MINUTE, maxLockMs: 4 * 60 * MINUTE },
  /** 'Gerar novo PIX' / 'Pagar agora': each may ask the payment provider for a new payment. */
  newPayment: { name: 'new-payment', limit: 5, windowMs: MINUTE },
  /** 'Avise-me quando chegar': each address left is mailed later. */
  restock: { name: 'restock', limit: 10, windowMs: MINUTE },
  /** 'Encontrar meu pedido' from one address: guesses of e-mails, CPFs and numbers. */
  orderLookup: { name: 'order-lookup', limit: 10, windowMs: 15 * MINUTE },
  /**
   * Links sent by 'Encontrar meu pedido' for one e-mail or CPF, from any address (ANY_ADDRESS):
   * each match e-mails its owner, whose inbox this keeps from being flooded. Only matches count,
   * so guesses cannot spend it for the owner; past it no more links go that hour, untold.
   */
  orderLookupForContact: { name: 'order-lookup-contact', limit: 5, windowMs: 60 * MINUTE },
  /** CEP look-ups that reach the CEP service (answers from the cache are free). */
  cepLookup: { name: 'cep', limit: 20, windowMs: MINUTE },
  /**
   * Shipping quotes of a shopper's estimates that reach the carrier (answers from the cache are
   * free): each spends the merchant's quota at Melhor Envio.
   */
  shippingQuote: { name: 'shipping-quote', limit: 20, windowMs: MINUTE },
  /**
   * Coupon codes checked from one address (typed in the cart or the checkout, a link's `cupom`,
   * a coupon cookie) that name no coupon a shopper may hold: guesses. A real code's check is
   * given back.
   */
  couponGuess: { name: 'coupon', limit: 10, windowMs: 15 * MINUTE, maxLockMs: 4 * 60 * MINUTE },
  /** 'Esqueci minha senha' from one address, whatever the e-mail. */
  passwordResetForAddress: { name: 'password-reset-address', limit: 10, windowMs: 60 * MINUTE },
  /**
   * 'Esqueci minha senha' for one e-mail, from anywhere (ANY_ADDRESS): past it no
   * more e-mails go to that address, and the page says what it always says. The admin signed in
   * as that e-mail counts apart (OWNER_PROOF).
   */
  passwordResetForAccount: { name: 'password-reset', limit: 5, windowMs: 60 * MINUTE },
  /** New passwords sent with a reset link's token, from one address. */
  passwordResetToken: { name: 'password-reset-token', limit: 10, windowMs: 15 * MINUTE },
  /** Shopper codes ('/conta/entrar', 'Excluir minha conta') asked for from one address. */
  shopperCodeForAddress: { name: 'shopper-code-address', limit: 20, windowMs: 60 * MINUTE },
  /**
   * Shopper codes for one e-mail, from anywhere (ANY_ADDRESS): each new code ends the one
   * before and its tries, so this caps the guesses at an e-mail to five codes' tries an hour.
   */
  shopperCodeForAccount: { name: 'shopper-code', limit: 5, windowMs: 60 * MINUTE },
  /** A buyer's reviews sent from the delivered order's link (`/avaliar`). */
  buyerReview: { name: 'review', limit: 20, windowMs: 10 * MINUTE },
} as const satisfies Record<string, RateLimitPolicy>;

/**
 * The address of a count kept per account from any address: a limit on what reaches one
 * mailbox, wherever the requests come from.
 */
export const ANY_ADDRESS = 'any';

/**
 * The address of a count kept per account for requests that prove they are its owner's (a
 * signed-in session of that very account): an allowance of its own, which strangers spending
 * the account's ANY_ADDRESS count cannot touch.
 */
export const OWNER_PROOF = 'owner';

/** Checkout submissions per address per minute: CHECKOUT_RATE_LIMIT. */
export function checkoutLimit(perMinute: number): RateLimitPolicy {
  return { name: 'checkout', limit: perMinute, windowMs: MINUTE };
}

/**
 * The checkout's contact saved as typed (abandoned checkouts), from one address: each checkout
 * sends a few (one per contact field left), so three times the checkout's own limit per minute.
 */
export function checkoutContactLimit(checkoutPerMinute: number): RateLimitPolicy {
  return { name: 'checkout-contact', limit: 3 * checkoutPerMinute, windowMs: MINUTE };
}

/** How long to wait, in pt-BR, never less than the time given: '40 segundos', '15 minutos'. */
export function waitText(seconds: number): string {
  if (seconds < 60) return countOf(Math.max(1, Math.ceil(seconds)), 'segundo', 'segundos');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return countOf(minutes, 'minuto', 'minutos');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const hoursText = countOf(hours, 'hora', 'horas');
  return rest === 0 ? hoursText : `${hoursText} e ${countOf(rest, 'minuto', 'minutos')}`;
}
