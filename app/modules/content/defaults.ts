import { formatCents } from '~/lib/money';
import { freeShippingFromCents } from '~/modules/pricing';
import type { StoreSettings } from '~/modules/settings';
import { storeAfter } from '~/lib/store-name';

import { contactChannels } from './contact';

// The built-in texts of the content pages, in Markdown, made from the store's settings so every
// promise (window, delivery, shipping, payment, contacts) matches what the store really offers.
// They name no product range: any store can use them as they are.

/** Backslash-escapes Markdown punctuation so a setting is shown literally, never as formatting. */
function literal(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()<>#+\-.!|~&]/g, '\\$&');
}

function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} e ${items.at(-1)}`;
}

/** A sentence continued after a colon: "Entrega: frete grátis…". */
function afterColon(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

function days(count: number, unit: 'corridos' | 'úteis'): string {
  const word = unit === 'úteis' ? (count === 1 ? 'dia útil' : 'dias úteis') : 'dias corridos';
  return `${count} ${word}`;
}

/** 'em até 12x sem juros' as the store allows it, or '' for one payment only. */
function installments(settings: StoreSettings): string {
  if (settings.max_installments < 2) return '';
  const interest = settings.installments_interest_free ? ' sem juros' : '';
  return `em até ${settings.max_installments}x${interest}`;
}

/**
 * The ways to pay, by the payment switches: the pages pass the settings narrowed to what the
 * provider takes (narrowPaymentSwitches), so no card, boleto or instalment is promised that
 * checkout cannot take.
 */
function paymentMethods(settings: StoreSettings): string[] {
  const methods: string[] = [];
  if (settings.enable_pix) methods.push('PIX');
  if (settings.enable_credit_card) {
    methods.push(`cartão de crédito ${installments(settings)}`.trim());
  }
  if (settings.enable_debit_card) methods.push('cartão de débito');
  if (settings.enable_boleto) methods.push('boleto bancário');
  if (settings.enable_paypal) methods.push('PayPal');
  return methods;
}

function paymentSentence(settings: StoreSettings): string {
  const methods = paymentMethods(settings);
  return methods.length > 0
    ? `Aceitamos ${joinAnd(methods)}.`
    : 'As formas de pagamento disponíveis aparecem ao finalizar a compra.';
}

function shippingSentence(settings: StoreSettings): string {
  const freeFrom = freeShippingFromCents(settings);
  if (freeFrom === 0) return 'Frete grátis para todo o Brasil, sem valor mínimo de compra.';
  const flat = `Frete fixo de ${formatCents(settings.default_shipping_cost_cents)} para todo o Brasil`;
  return freeFrom === null
    ? `${flat}.`
    : `${flat}, e grátis em compras a partir de ${formatCents(freeFrom)}.`;
}

function deliverySentence(settings: StoreSettings): string {
  return (
    `O prazo de entrega é de até ${days(settings.estimated_delivery_days, 'úteis')} ` +
    'após a confirmação do pagamento.'
  );
}

/** The configured channels as a Markdown list with links (tel: links are not allowed in Markdown). */
function channelList(settings: StoreSettings): string | null {
  const lines = contactChannels(settings).map((channel) => {
    const value = literal(channel.value);
    if (channel.kind === 'whatsapp' || channel.kind === 'email') {
      return `- ${channel.label}: [${value}](<${channel.href}>)`;
    }
    return `- ${channel.label}: ${value}`;
  });
  return lines.length > 0 ? lines.join('\n') : null;
}

/** "pelos canais abaixo:" plus the list, or a pointer to the contact page when none is set. */
function reachUs(settings: StoreSettings, lead: string): string {
  const list = channelList(settings);
  return list
    ? `${lead} por um dos nossos canais de atendimento:\n\n${list}`
    : `${lead} pela nossa página de [Contato](/contato).`;
}

export function aboutText(settings: StoreSettings): string {
  const store = literal(settings.store_name);
  const intro = [
    `A ${store} é uma loja online feita para você comprar com tranquilidade, de onde estiver.`,
    settings.store_description ? literal(settings.store_description) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const slogan = settings.store_slogan ? `\n\n*${literal(settings.store_slogan)}*` : '';
  return `## Quem somos

${intro}${slogan}

Acreditamos que comprar pela internet deve ser simples: informação clara sobre cada produto, preço justo, pagamento seguro e atendimento de verdade sempre que você precisar.

## Como trabalhamos

- **Informação clara:** cada produto tem fotos, descrição, preço e estoque na sua página, para você saber exatamente o que está comprando.
- **Pagamento seguro:** ${afterColon(paymentSentence(settings))}
- **Entrega:** ${afterColon(shippingSentence(settings))} ${deliverySentence(settings)}
- **Trocas e devoluções:** você tem ${days(settings.return_window_days, 'corridos')} a partir do recebimento para trocar ou devolver. Veja a [Política de troca e devolução](/politicadevolucao).
- **Privacidade:** usamos seus dados só para processar, entregar e atender seus pedidos. Saiba mais na [Política de privacidade](/politicaprivacidade).

## Fale com a gente

${reachUs(settings, 'Ficou com alguma dúvida ou quer dar uma sugestão? Fale com a gente')}
`;
}

export function returnPolicyText(settings: StoreSettings): string {
  const store = literal(settings.store_name);
  const window = settings.return_window_days;
  const legal =
    window > 7
      ? 'Esse prazo vai além do garantido por lei: nas compras feitas pela internet, o Código de Defesa do Consumidor (art. 49) assegura o direito de arrependimento em até 7 dias a partir do recebimento.'
      : 'É o prazo do direito de arrependimento que o Código de Defesa do Consumidor (art. 49) assegura nas compras feitas pela internet.';
  const cardRefund = settings.enable_credit_card
    ? ' No cartão de crédito, o estorno aparece na fatura conforme o calendário da administradora do cartão.'
    : '';
  return `Queremos que você fique satisfeito com a sua compra. Se algo não saiu como esperado, esta política explica como trocar ou devolver um produto comprado ${storeAfter('na', store)}.

## Prazo

Você tem **${days(window, 'corridos')}**, contados a partir do recebimento do produto, para pedir a troca ou a devolução, tanto por arrependimento quanto por defeito de fabricação.

${legal}

## Arrependimento

Mudou de ideia? Dentro do prazo, você pode devolver o produto sem precisar explicar o motivo. Ele deve voltar em bom estado, com todos os acessórios, manuais e brindes que o acompanharam, de preferência na embalagem original. Nas devoluções por arrependimento dentro dos 7 dias legais, o frete de devolução é por nossa conta.

## Produto com defeito

Se o produto chegou com defeito de fabricação, avariado ou diferente do que você comprou, envie **fotos ou um vídeo** que mostrem o problema quando entrar em contato. Depois da análise, trocamos o produto por outro igual ou, se você preferir ou se não houver estoque, devolvemos o valor pago. Nas trocas por defeito, o frete de ida e de volta é por nossa conta.

Passado o prazo de ${days(window, 'corridos')}, continuam valendo a garantia legal do Código de Defesa do Consumidor (art. 26) e a garantia do fabricante, quando houver.

## Como solicitar

${reachUs(settings, 'Para começar, fale com a gente')}

Informe o **número do pedido** e conte o motivo da troca ou devolução. Em seguida, enviamos as instruções para postar o produto.

## Reembolso

Assim que recebermos o produto e confirmarmos que ele atende às condições desta política, devolvemos o valor total pago, pela mesma forma de pagamento usada na compra.${cardRefund}

## Quando a devolução pode ser recusada

Podemos recusar a troca ou a devolução quando:

- a solicitação for feita depois do prazo de ${days(window, 'corridos')} do recebimento (ressalvadas a garantia legal e a do fabricante);
- o produto apresentar sinais de mau uso, danos causados depois da entrega ou alterações;
- faltarem acessórios, manuais, peças ou brindes que acompanhavam o produto.

Nesses casos, avisamos você e reenviamos o produto ao seu endereço, com o frete por conta do cliente.
`;
}

export function privacyPolicyText(settings: StoreSettings): string {
  const store = literal(settings.store_name);
  const card = settings.enable_credit_card || settings.enable_debit_card;
  const cardData = card
    ? ' Os dados do seu cartão vão direto para o provedor de pagamento: não os guardamos.'
    : '';
  return `A ${store} respeita a sua privacidade. Esta política explica quais dados pessoais tratamos, por que, com quem os compartilhamos e como você exerce os seus direitos, conforme a Lei Geral de Proteção de Dados (Lei nº 13.709/2018, a LGPD).

## Quem é o responsável

A ${store} é a controladora dos dados pessoais tratados nesta loja. ${reachUs(settings, 'Para qualquer assunto sobre privacidade, fale com a gente')}

## Quais dados coletamos

- **Dados da compra:** ao finalizar um pedido, você informa nome, e-mail, CPF, telefone e endereço de entrega. Guardamos também os itens, os valores e a situação de cada pedido.${cardData}
- **Dados da sua conta:** se você entrar em [Minha conta](/conta) com o seu e-mail, guardamos esse e-mail, os endereços e favoritos que você salvar, as suas preferências de e-mail e as sessões abertas nos seus aparelhos (por até 90 dias cada).
- **Compra não finalizada:** quando você digita o seu e-mail no checkout, guardamos o e-mail, o nome, o telefone e os itens do carrinho para lembrar você da compra uma única vez, se ela não for finalizada. Você pode recusar esse lembrete no próprio checkout, pelo link do e-mail ou em Minha conta.
- **Cookies essenciais:** o seu carrinho, a sua escolha sobre cookies, a sua sessão em Minha conta e o identificador que liga este navegador ao seu histórico de compras ficam guardados em cookies no seu navegador. Sem eles a loja não funciona.
- **Cookies de medição e publicidade:** ferramentas de análise de visitas e de anúncios (como pixels de redes sociais) só são carregadas se você aceitar. Sem o seu consentimento, elas não são ativadas.

## Para que usamos os seus dados

- processar, cobrar e entregar os seus pedidos e avisar você sobre eles;
- atender as suas dúvidas, trocas e devoluções;
- cumprir obrigações legais e fiscais, como a emissão de nota fiscal;
- prevenir fraudes e manter a loja segura;
- com o seu consentimento, medir as visitas à loja e mostrar anúncios mais relevantes.

Não vendemos os seus dados pessoais.

## Bases legais

Tratamos os seus dados para executar o contrato de compra (art. 7º, V, da LGPD), para cumprir obrigações legais (art. 7º, II), por legítimo interesse na prevenção de fraudes e na segurança da loja (art. 7º, IX) e, para os cookies de medição e publicidade, com o seu consentimento (art. 7º, I), que você pode retirar quando quiser.

## Com quem compartilhamos

Compartilhamos só o necessário com:

- **provedores de pagamento**, para processar o pagamento do pedido;
- **transportadoras e Correios**, para entregar o pedido;
- **ferramentas de medição e publicidade**, somente se você aceitar esses cookies;
- **autoridades públicas**, quando a lei exigir.

## Por quanto tempo guardamos

Guardamos os dados dos pedidos pelo tempo necessário para as finalidades acima e para cumprir as obrigações legais, fiscais e de defesa do consumidor (em geral, 5 anos). Depois, eles são eliminados ou anonimizados. O carrinho fica no seu navegador por até 30 dias.

## Os seus direitos

Pelo art. 18 da LGPD, você pode nos pedir a qualquer momento:

- a confirmação de que tratamos os seus dados e o acesso a eles;
- a correção de dados incompletos, inexatos ou desatualizados;
- a anonimização, o bloqueio ou a eliminação de dados desnecessários, excessivos ou tratados em desconformidade com a lei;
- a portabilidade dos dados a outro fornecedor;
- a eliminação dos dados tratados com o seu consentimento;
- a informação sobre com quem compartilhamos os seus dados;
- a informação sobre a possibilidade de não dar consentimento e as consequências disso;
- a revogação do consentimento.

Em [Minha conta](/conta), depois de entrar com o código enviado ao seu e-mail, você mesmo pode:

- **Baixar meus dados:** um arquivo com tudo o que a loja guarda sobre você: pedidos, endereços, favoritos, avaliações, avisos de estoque, compras não finalizadas, preferências e sessões;
- **Excluir minha conta:** apagamos os seus endereços, favoritos, avisos de estoque, compras não finalizadas e sessões, e as suas avaliações passam a ser assinadas como "Cliente". Se você recusou os lembretes de compra, a recusa continua valendo. Os pedidos continuam guardados pelo prazo que a lei fiscal exige.

Para os demais direitos, fale com a gente pelos canais indicados acima. Você também pode reclamar à Autoridade Nacional de Proteção de Dados (ANPD).

## Segurança

Adotamos medidas técnicas e administrativas para proteger os seus dados contra acessos não autorizados e contra situações acidentais ou ilícitas de perda, alteração ou divulgação.

## Alterações desta política

Podemos atualizar esta política. A versão em vigor é sempre a publicada nesta página.
`;
}

export interface FaqItem {
  question: string;
  /** Markdown. */
  answer: string;
}

export interface FaqSection {
  title: string;
  items: FaqItem[];
}

export function faqSections(settings: StoreSettings): FaqSection[] {
  const window = days(settings.return_window_days, 'corridos');
  const payment: FaqItem[] = [
    { question: 'Quais são as formas de pagamento?', answer: paymentSentence(settings) },
  ];
  if (settings.enable_pix) {
    payment.push({
      question: 'Como funciona o pagamento por PIX?',
      answer:
        'Ao finalizar o pedido, você recebe um QR Code e um código PIX "copia e cola". Pague pelo aplicativo do seu banco: o pedido é confirmado assim que o pagamento é identificado.',
    });
  }
  if (settings.enable_credit_card && installments(settings)) {
    payment.push({
      question: 'Posso parcelar a compra?',
      answer: `Sim. No cartão de crédito, você pode parcelar ${installments(settings)}.`,
    });
  }
  if (settings.enable_boleto) {
    payment.push({
      question: 'Quando o pagamento por boleto é confirmado?',
      answer:
        'O boleto é confirmado depois da compensação bancária, que costuma levar até 3 dias úteis. O prazo de entrega começa a contar a partir da confirmação.',
    });
  }
  payment.push(
    {
      question: 'Preciso criar uma conta para comprar?',
      answer: 'Não. Basta informar os seus dados de entrega ao finalizar a compra.',
    },
    {
      question: 'É seguro comprar aqui?',
      answer:
        'Sim. O pagamento é processado por um provedor de pagamento e os seus dados são tratados conforme a nossa [Política de privacidade](/politicaprivacidade).',
    },
  );

  const shipping: FaqItem[] = [
    { question: 'Quanto custa o frete?', answer: shippingSentence(settings) },
    { question: 'Qual é o prazo de entrega?', answer: deliverySentence(settings) },
    {
      question: 'Como acompanho a entrega?',
      answer:
        'Quando o pedido é enviado, informamos o código de rastreamento para você acompanhar a entrega.',
    },
  ];
  if (settings.enable_local_pickup) {
    const address = settings.contact_address
      ? ` no endereço ${literal(settings.contact_address)}`
      : '';
    shipping.push({
      question: 'Posso retirar o pedido pessoalmente?',
      answer: `Sim, a retirada está disponível${address}. Aguarde a confirmação de que o pedido está pronto antes de ir buscar.`,
    });
  }
  shipping.push(
    {
      question: 'Posso trocar ou devolver um produto?',
      answer: `Sim. Você tem ${window} a partir do recebimento para trocar ou devolver, por arrependimento ou por defeito. Os detalhes estão na [Política de troca e devolução](/politicadevolucao).`,
    },
    {
      question: 'O produto chegou com defeito. E agora?',
      answer: `${reachUs(settings, 'Fale com a gente')}\n\nInforme o número do pedido e envie fotos ou um vídeo do defeito. Nas trocas por defeito, o frete de ida e de volta é por nossa conta.`,
    },
  );

  return [
    {
      title: 'Produtos',
      items: [
        {
          question: 'Como sei se um produto está disponível?',
          answer:
            'A página de cada produto mostra o estoque disponível. Produtos esgotados não podem ser adicionados ao carrinho.',
        },
        {
          question: 'Os produtos têm garantia?',
          answer:
            'Sim. Todos os produtos têm a garantia legal do Código de Defesa do Consumidor, além da garantia do fabricante, quando houver.',
        },
        {
          question: 'Posso tirar dúvidas sobre um produto antes de comprar?',
          answer: reachUs(settings, 'Claro! Fale com a gente'),
        },
      ],
    },
    { title: 'Compra e pagamento', items: payment },
    { title: 'Envio, entrega e devoluções', items: shipping },
  ];
}

export function contactText(settings: StoreSettings): string {
  const faq =
    'as [Perguntas frequentes](/faq) respondem às dúvidas mais comuns sobre pagamento, entrega e trocas';
  return contactChannels(settings).length > 0
    ? `Tem alguma dúvida sobre um produto, um pedido, uma troca ou uma devolução? Fale com a gente por um dos canais abaixo. Se for sobre um pedido, informe o número dele para agilizar o atendimento.

Talvez a resposta já esteja aqui: ${faq}.
`
    : `Tem alguma dúvida sobre um produto, um pedido, uma troca ou uma devolução? Talvez a resposta já esteja aqui: ${faq}.
`;
}
