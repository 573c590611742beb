// The buyer's review page's address and words, apart from the zod schemas so the page's
// browser code does not carry zod.

/** The page a delivered order's e-mail opens to review what was bought (`?orderId=…&chave=…`). */
export const REVIEW_ORDER_PATH = '/avaliar';

export const BUYER_REVIEW_MESSAGES = {
  title: 'Avalie sua compra',
  notFound: 'Pedido não encontrado. Abra o link do e-mail de entrega do seu pedido.',
  notDelivered:
    'Você poderá avaliar os produtos assim que o pedido for entregue. Enviaremos o link por e-mail.',
  disabled: 'Esta loja não está recebendo avaliações no momento.',
  noProducts: 'Os produtos deste pedido não estão mais à venda na loja.',
  notInOrder: 'Este produto não faz parte do pedido.',
  rating: 'Escolha de 1 a 5 estrelas.',
  sent: 'Obrigado pela avaliação! Ela aparece na loja depois de revisada pela equipe.',
  already: 'Você já avaliou este produto. Obrigado!',
  busy: 'Muitas avaliações enviadas em pouco tempo. Aguarde um minuto e tente novamente.',
} as const;
