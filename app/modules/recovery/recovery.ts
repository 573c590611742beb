// What the browser may load of the recovery: its paths, field names and pt-BR texts.

/** The recovery e-mail's link: restores the saved cart on any browser. */
export const RECOVER_PATH = '/carrinho/recuperar';
/** The one-click unsubscribe link (GET confirms, POST does it; RFC 8058). */
export const UNSUBSCRIBE_PATH = '/carrinho/descadastrar';
/** The query parameter of both links. */
export const RECOVERY_KEY_PARAM = 'chave';
export const RECOVERY_MESSAGES = {
  email: 'E-mail inválido.',
  linkInvalid: 'Este link de recuperação não vale mais: o carrinho expirou ou já virou pedido.',
  unsubscribeTitle: 'Cancelar e-mails de carrinho abandonado',
  unsubscribeAsk: (email: string) =>
    `Não enviar mais e-mails sobre carrinhos abandonados para ${email}?`,
  unsubscribeButton: 'Cancelar os e-mails',
  unsubscribed:
    'Pronto: não enviaremos mais e-mails sobre carrinhos abandonados para este endereço.',
  unsubscribeInvalid: 'Este link de descadastro não vale mais. Nenhum e-mail foi alterado.',
} as const;

/** 'fu***@gmail.com': enough for the owner to recognise it, not enough for anyone else. */
export function maskEmail(email: string): string {
  const [user = '', domain = ''] = email.split('@');
  return `${user.slice(0, 2)}***@${domain}`;
}

/** The wa.me link with the message filled in; null without a usable Brazilian phone. */
export function whatsappLink(phone: string, message: string): string | null {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 10 || digits.length > 11) return null;
  return `https://wa.me/55${digits}?${new URLSearchParams({ text: message })}`;
}
