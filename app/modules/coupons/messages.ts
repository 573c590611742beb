import { formatCents } from '~/lib/money';
import type { CouponMiss } from '~/modules/pricing';

/** What the shopper reads about a coupon, one text per reason (the list and the cart's). */
export const COUPON_MESSAGES = {
  invalidCode: 'Digite o código do cupom: só letras e números, de 3 a 30.',
  unknown: (code: string) => `Não encontramos o cupom ${code}. Confira o código.`,
  expired: (code: string) => `O cupom ${code} expirou.`,
  usedUp: (code: string) => `O cupom ${code} esgotou: já foi usado todas as vezes possíveis.`,
  usedByShopper: (code: string) => `Você já usou o cupom ${code} todas as vezes possíveis.`,
  firstPurchase: (code: string) => `O cupom ${code} vale só para a primeira compra na loja.`,
  applied: (code: string) => `Cupom ${code} aplicado.`,
  removed: 'Cupom removido.',
  busy: (wait: string) =>
    `Muitos códigos de cupom tentados em pouco tempo. Tente de novo em ${wait}.`,
} as const;

/** Why a coupon the shopper holds does not change these lines' price, in pt-BR. */
export function couponMissText(code: string, miss: CouponMiss): string {
  switch (miss.reason) {
    case 'minimum':
      return (
        `Faltam ${formatCents(miss.missingCents)} para usar o cupom ${code}: ele vale em ` +
        `compras a partir de ${formatCents(miss.minimumCents)}.`
      );
    case 'products':
      return `O cupom ${code} não vale para os produtos do seu carrinho.`;
    case 'shipping_free':
      return `O frete deste pedido já é grátis: o cupom ${code} não muda o total.`;
    case 'pix_better':
      return (
        `O desconto no PIX é maior que o do cupom ${code} e os dois não se somam: ` +
        'no PIX, vale o desconto no PIX.'
      );
  }
}
