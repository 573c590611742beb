// What the checkout page carries of the recovery, in a file of its own: the bundler places a
// module whole, so the recovery pages' texts stay out of the checkout's first JavaScript.

/** The checkout's small request that saves the contact as typed. */
export const CHECKOUT_CONTACT_PATH = '/checkout/contato';
/** The checkout's opt-out checkbox. */
export const RECOVERY_OPT_OUT_FIELD = 'recoveryOptOut';

/** What the checkout says about recovery e-mails. */
export const CHECKOUT_RECOVERY_TEXTS = {
  notice:
    'Se você não concluir a compra, podemos enviar um e-mail com um link para retomar este carrinho.',
  optOut: 'Não quero receber e-mails sobre carrinhos não finalizados',
} as const;
