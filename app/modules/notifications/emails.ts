import { formatDateTime } from '~/lib/date-format';
import { formatCents, formatSignedCents } from '~/lib/money';
import { trackingLink } from '~/modules/orders';
import { storeAfter } from '~/lib/store-name';

export interface OrderEmailData {
  /** The order's name, '#1001' (orderNumber of the orders module). */
  number: string;
  customerName: string;
  customerEmail: string;
  items: { name: string; quantity: number; unitPriceCents: number; totalCents: number }[];
  subtotalCents: number;
  shippingCents: number;
  /** 'Frete (Correios SEDEX)': how it ships (shippingLineLabel); 'Frete' when absent. */
  shippingLabel?: string;
  /** The coupon and PIX discounts, already in the total, as the order stored them. */
  adjustments: readonly { label: string; cents: number }[];
  totalCents: number;
  /** The delivery address on one line. */
  addressLine: string;
  /** PIX copia e cola, while the order waits for it. */
  pixCode: string | null;
  expiresAt: Date | null;
  /** Absolute URL of the order's page. */
  orderUrl: string;
  /** Ready to read, such as "sexta-feira, 4 de dezembro de 2026". */
  estimatedDelivery?: string;
  /** The carrier's code, once the order ships. */
  trackingCode?: string | null;
  /** The order had been paid before it was cancelled: the shopper is owed a refund. */
  wasPaid?: boolean;
  /** Absolute URL of the page where the buyer reviews what they bought (delivered orders). */
  reviewUrl?: string;
  /** The order's authorized NF-e: its number, 44-digit access key and DANFE's address. */
  invoice?: { number: string | null; key: string; danfeUrl: string | null };
}

export interface EmailStore {
  name: string;
  contactEmail?: string;
  contactPhone?: string;
  /** The store's zone, in which the PIX deadline is written; São Paulo's by default. */
  timeZone?: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** Extra header lines (List-Unsubscribe on marketing-like mail). */
  headers?: Record<string, string>;
}

/** Sent when an order is placed: what was bought and, for PIX, how to pay. */
export function orderReceivedEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number } = data;
  const subject = `Recebemos seu pedido ${number}`;
  const pix = data.pixCode ? pixPart(data, store) : null;
  const next = pix
    ? 'Seu pedido será confirmado assim que o pagamento por PIX for aprovado.'
    : 'Avisaremos você por e-mail assim que o pagamento for confirmado.';
  return compose(store, subject, orderFrame(store, data), [
    paragraph(`Olá, ${firstName(data.customerName)}!`),
    paragraph(`Obrigado por comprar ${storeAfter('na', store.name)}! ${next}`),
    ...(pix ? [pix] : []),
    summary(data),
  ]);
}

/** Sent once the payment is confirmed: the order goes on to be prepared and shipped. */
export function paymentConfirmedEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number } = data;
  const subject = `Pagamento confirmado: pedido ${number}`;
  return compose(store, subject, orderFrame(store, data), [
    paragraph(`Olá, ${firstName(data.customerName)}!`),
    paragraph(
      `Recebemos o pagamento do seu pedido ${number}. Agora vamos preparar tudo para o envio.`,
    ),
    ...(data.estimatedDelivery
      ? [paragraph(`Previsão de entrega: ${data.estimatedDelivery}.`, { strong: true })]
      : []),
    summary(data),
  ]);
}

/** Sent when the order's NF-e is authorized: its number, access key and DANFE. */
export function invoiceAuthorizedEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number, invoice } = data;
  const subject = `Nota fiscal do pedido ${number}`;
  const key = invoice?.key.replace(/(\d{4})(?=\d)/g, '$1 ') ?? '';
  const danfe = invoice?.danfeUrl;
  return compose(store, subject, orderFrame(store, data), [
    paragraph(`Olá, ${firstName(data.customerName)}!`),
    paragraph(
      invoice?.number
        ? `A nota fiscal (NF-e nº ${invoice.number}) do seu pedido ${number} foi emitida.`
        : `A nota fiscal (NF-e) do seu pedido ${number} foi emitida.`,
    ),
    heading('Chave de acesso'),
    paragraph(key, { strong: true }),
    ...(danfe
      ? [
          {
            html: `<p style="margin:0 0 16px;"><a href="${escapeHtml(danfe)}" style="color:#1d4ed8;font-weight:bold;">Ver o DANFE (PDF)</a></p>`,
            text: `Ver o DANFE (PDF): ${danfe}`,
          },
        ]
      : []),
    summary(data),
  ]);
}

/** Sent when staff mark the order shipped: the carrier's tracking code. */
export function orderShippedEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number } = data;
  const subject = `Seu pedido ${number} foi enviado`;
  return compose(store, subject, orderFrame(store, data), [
    paragraph(`Olá, ${firstName(data.customerName)}!`),
    paragraph(`Boa notícia: seu pedido ${number} foi postado e está a caminho.`),
    ...(data.trackingCode ? [trackingPart(data.trackingCode)] : []),
    ...(data.estimatedDelivery
      ? [paragraph(`Previsão de entrega: ${data.estimatedDelivery}.`, { strong: true })]
      : []),
    summary(data),
  ]);
}

/** Sent when staff correct the tracking code of an order already shipped. */
export function trackingCodeChangedEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number } = data;
  const subject = `Novo código de rastreio do pedido ${number}`;
  return compose(store, subject, orderFrame(store, data), [
    paragraph(`Olá, ${firstName(data.customerName)}!`),
    paragraph(
      `O código de rastreio do seu pedido ${number} mudou. Use o código abaixo para acompanhar a entrega; o anterior não vale mais.`,
    ),
    ...(data.trackingCode ? [trackingPart(data.trackingCode)] : []),
    summary(data),
  ]);
}

/**
 * Sent when staff record the delivery. With reviews on, it invites the buyer to review what they
 * bought: the button opens the order's review page (its key in the link), the order's own page
 * stays a link below.
 */
export function orderDeliveredEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number } = data;
  const subject = `Seu pedido ${number} foi entregue`;
  const frame = orderFrame(store, data);
  const invite = data.reviewUrl
    ? paragraph(
        'Conte para outros clientes o que achou: a sua avaliação ajuda quem está escolhendo. Leva um minuto.',
      )
    : null;
  const orderLink: Part = {
    html: `<p style="margin:0 0 16px;"><a href="${escapeHtml(data.orderUrl)}" style="color:${INK};">${escapeHtml(frame.link.label)}</a></p>`,
    text: `${frame.link.label}: ${data.orderUrl}`,
  };
  return compose(
    store,
    subject,
    data.reviewUrl
      ? { ...frame, link: { url: data.reviewUrl, label: 'Avaliar os produtos' } }
      : frame,
    [
      paragraph(`Olá, ${firstName(data.customerName)}!`),
      paragraph(
        `Seu pedido ${number} foi entregue. Esperamos que você goste! Se algo não estiver certo, responda a este e-mail ou fale com a gente.`,
      ),
      ...(invite ? [invite] : []),
      summary(data),
      ...(data.reviewUrl ? [orderLink] : []),
    ],
  );
}

/** Sent when staff cancel the order: what happens to the stock and, if paid, to the money. */
export function orderCancelledEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number } = data;
  const subject = `Seu pedido ${number} foi cancelado`;
  const money = data.wasPaid
    ? 'O valor pago será devolvido a você. Se tiver dúvidas sobre o reembolso, fale com a gente.'
    : 'Nenhum valor foi cobrado por este pedido.';
  return compose(store, subject, orderFrame(store, data), [
    paragraph(`Olá, ${firstName(data.customerName)}!`),
    paragraph(`Seu pedido ${number} foi cancelado. ${money}`),
    summary(data),
  ]);
}

/**
 * Sent when someone asks for the order with its number and the shopper's e-mail or CPF
 * ('Encontrar meu pedido'): the link goes only to the address the order was placed with.
 */
export function orderLinkEmail(data: OrderEmailData, store: EmailStore): RenderedEmail {
  const { number } = data;
  const subject = `O link do seu pedido ${number}`;
  return compose(
    store,
    subject,
    {
      link: { url: data.orderUrl, label: 'Acompanhar meu pedido' },
      reason: `Você recebeu este e-mail porque o número deste pedido e o seu e-mail ou CPF foram informados em 'Encontrar meu pedido'. Se não foi você, ignore esta mensagem: o link foi enviado só para você, ${data.customerEmail}.`,
    },
    [
      paragraph(`Olá, ${firstName(data.customerName)}!`),
      paragraph(
        `Aqui está o link do seu pedido ${number}: com ele você acompanha o pedido em qualquer aparelho.`,
        { strong: true },
      ),
      summary(data),
    ],
  );
}

export interface RestockEmailData {
  /** Whoever asked on the product's page ('Avise-me quando chegar'). */
  email: string;
  productName: string;
  /** Absolute URL of the product's page. */
  productUrl: string;
}

/** Sent once when a sold-out product someone asked about is back in stock. */
export function restockEmail(data: RestockEmailData, store: EmailStore): RenderedEmail {
  const subject = `Chegou: ${data.productName}`;
  return compose(
    store,
    subject,
    {
      link: { url: data.productUrl, label: 'Ver o produto' },
      reason: `Você recebeu este e-mail porque pediu para ser avisado quando este produto voltasse ao estoque ${storeAfter('da', store.name)}, com o endereço ${data.email}. Este é o único aviso sobre ele.`,
    },
    [
      paragraph('Olá!'),
      paragraph(
        `Boa notícia: ${data.productName} voltou ao estoque ${storeAfter('da', store.name)}.`,
        {
          strong: true,
        },
      ),
      paragraph('As unidades podem acabar de novo; garanta a sua enquanto há estoque.'),
    ],
  );
}

export interface RestockConfirmEmailData {
  /** The address typed on the product's page, which is asked to confirm. */
  email: string;
  productName: string;
  /** Absolute URL of the confirmation page (it carries the request's token). */
  confirmUrl: string;
}

/**
 * Sent when someone asks 'Avise-me quando chegar': nothing more is sent to this address unless
 * its owner confirms (anyone can type anyone's address on the form).
 */
export function restockConfirmEmail(
  data: RestockConfirmEmailData,
  store: EmailStore,
): RenderedEmail {
  const subject = `Confirme o aviso: ${data.productName}`;
  return compose(
    store,
    subject,
    {
      link: { url: data.confirmUrl, label: 'Confirmar o aviso' },
      reason: `Você recebeu este e-mail porque o endereço ${data.email} foi informado na página deste produto ${storeAfter('da', store.name)}. Se não foi você, ignore esta mensagem: sem a confirmação, não enviaremos mais nada, e o pedido é apagado em 7 dias.`,
    },
    [
      paragraph('Olá!'),
      paragraph(
        `Recebemos um pedido para avisar este endereço quando ${data.productName} voltar ao estoque ${storeAfter('da', store.name)}.`,
        { strong: true },
      ),
      paragraph('Para receber o aviso, abra o link abaixo e toque em Confirmar.'),
    ],
  );
}

export interface AbandonedCheckoutEmailData {
  /** The address typed at checkout. */
  email: string;
  customerName: string;
  /** The cart's products as saved, without prices: the link prices them again today. */
  items: { name: string; quantity: number }[];
  /** Absolute URL that restores the cart (it carries the restore key). */
  recoverUrl: string;
  /** Absolute one-click unsubscribe URL (it carries its own key). */
  unsubscribeUrl: string;
}

/**
 * The one e-mail of a checkout left with an e-mail typed: a link back to the cart, and one-click
 * unsubscribe in the footer and in the List-Unsubscribe headers (RFC 2369 and RFC 8058).
 */
export function abandonedCheckoutEmail(
  data: AbandonedCheckoutEmailData,
  store: EmailStore,
): RenderedEmail {
  const subject = 'Seu carrinho está esperando por você';
  const greeting = firstName(data.customerName);
  const items = data.items.map((item) => `${item.quantity} × ${item.name}`);
  const list: Part = {
    html: `<ul style="margin:0 0 16px;padding-left:20px;">${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
    text: items.map((item) => `- ${item}`).join('\n'),
  };
  const unsubscribe: Part = {
    html: `<p style="margin:0 0 16px;font-size:14px;color:${MUTED};">Não quer mais receber e-mails como este? <a href="${escapeHtml(data.unsubscribeUrl)}" style="color:${MUTED};">Cancelar estes e-mails</a>.</p>`,
    text: `Não quer mais receber e-mails como este? Cancele aqui: ${data.unsubscribeUrl}`,
  };
  const message = compose(
    store,
    subject,
    {
      link: { url: data.recoverUrl, label: 'Voltar ao meu carrinho' },
      reason: `Você recebeu este e-mail porque informou o endereço ${data.email} ao finalizar uma compra ${storeAfter('na', store.name)} e não concluiu o pedido. Este é o único e-mail sobre este carrinho.`,
    },
    [
      paragraph(greeting ? `Olá, ${greeting}!` : 'Olá!'),
      paragraph(`Você deixou estes produtos no carrinho ${storeAfter('da', store.name)}:`, {
        strong: true,
      }),
      list,
      paragraph(
        'O link abaixo abre o mesmo carrinho em qualquer aparelho. Os preços e o estoque são os do momento em que você voltar.',
      ),
      unsubscribe,
    ],
  );
  return {
    ...message,
    headers: {
      'List-Unsubscribe': `<${data.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

export interface PasswordResetEmailData {
  /** The admin's address, which asked on 'Esqueci minha senha' (or someone typed it there). */
  email: string;
  fullName: string;
  /** Absolute URL of the reset page (it carries the token). */
  resetUrl: string;
  /** When the link stops working. */
  expiresAt: Date;
}

/**
 * Sent on 'Esqueci minha senha' to an admin's address: a link valid for an hour, used once.
 * Nothing changes unless its owner opens it and chooses a new password.
 */
export function passwordResetEmail(data: PasswordResetEmailData, store: EmailStore): RenderedEmail {
  const subject = `Redefinir a senha do painel da loja ${store.name}`;
  const deadline = formatDateTime(data.expiresAt, store.timeZone ?? 'America/Sao_Paulo', {
    zone: true,
  });
  return compose(
    store,
    subject,
    {
      link: { url: data.resetUrl, label: 'Criar uma nova senha' },
      reason: `Você recebeu este e-mail porque alguém pediu para redefinir a senha do administrador ${data.email} no painel da loja ${store.name}. Se não foi você, ignore esta mensagem: a sua senha continua a mesma.`,
    },
    [
      paragraph(`Olá, ${firstName(data.fullName)}!`),
      paragraph('Recebemos um pedido para redefinir a senha do seu acesso ao painel.'),
      paragraph(
        `Abra o link abaixo e escolha uma nova senha. Ele pode ser usado uma vez e vale até ${deadline}.`,
        { strong: true },
      ),
    ],
  );
}

export interface ShopperCodeEmailData {
  code: string;
  email: string;
  /** What the code proves: a sign-in on /conta/entrar, or the account's deletion. */
  purpose: 'sign-in' | 'delete';
  /** When the code stops working. */
  expiresAt: Date;
}

/**
 * The six-digit code a shopper types to sign in on '/conta/entrar' (or to confirm the account's
 * deletion): valid for 10 minutes, once. Nothing happens unless someone types it.
 */
export function shopperCodeEmail(data: ShopperCodeEmailData, store: EmailStore): RenderedEmail {
  const deleting = data.purpose === 'delete';
  const subject = deleting
    ? `Código para excluir sua conta na loja ${store.name}`
    : `Seu código para entrar na loja ${store.name}`;
  const deadline = formatDateTime(data.expiresAt, store.timeZone ?? 'America/Sao_Paulo', {
    zone: true,
  });
  return compose(
    store,
    subject,
    {
      reason: deleting
        ? `Você recebeu este e-mail porque alguém pediu para excluir a conta ${data.email} na loja ${store.name}. Se não foi você, ignore esta mensagem: nada será excluído.`
        : `Você recebeu este e-mail porque alguém pediu para entrar na loja ${store.name} com o e-mail ${data.email}. Se não foi você, ignore esta mensagem.`,
    },
    [
      paragraph('Olá!'),
      paragraph(
        deleting
          ? 'Digite este código na página Minha conta para confirmar a exclusão da sua conta:'
          : 'Digite este código na página de entrada da loja:',
      ),
      paragraph(data.code, { strong: true }),
      paragraph(`O código pode ser usado uma vez e vale até ${deadline}.`),
    ],
  );
}

export interface MailTestEmailData {
  /** The signed-in admin's address, which the test goes to. */
  email: string;
}

/**
 * Sent from /admin/payments ('Enviar e-mail de teste', and before new e-mail settings are saved):
 * its arrival proves the server, the sign-in and the sender work.
 */
export function mailTestEmail(data: MailTestEmailData, store: EmailStore): RenderedEmail {
  const subject = `E-mail de teste da loja ${store.name}`;
  return compose(
    store,
    subject,
    {
      reason: `Você recebeu este e-mail porque o envio de e-mails da loja ${store.name} foi testado no painel, com o endereço ${data.email}.`,
    },
    [
      paragraph('Olá!'),
      paragraph('O envio de e-mails da loja está funcionando.', { strong: true }),
      paragraph(
        'Os e-mails de pedidos, pagamentos, entregas e avisos aos clientes saem por este mesmo servidor e remetente.',
      ),
    ],
  );
}

function trackingPart(code: string): Part {
  const title = heading('Código de rastreio');
  const link = trackingLink(code);
  const codeBox = `<p style="margin:0 0 8px;padding:12px;background:#f4f4f5;border:1px solid ${LINE};border-radius:6px;font-family:'Courier New',Courier,monospace;font-size:16px;font-weight:bold;">${escapeHtml(code)}</p>`;
  if (!link) {
    const hint = 'Use este código no site da transportadora para acompanhar a entrega.';
    return {
      html: [title.html, codeBox, `<p style="margin:0 0 16px;">${escapeHtml(hint)}</p>`].join(''),
      text: [title.text, code, hint].join('\n'),
    };
  }
  const label = `Rastrear nos ${link.carrier}`;
  return {
    html: [
      title.html,
      codeBox,
      `<p style="margin:0 0 16px;"><a href="${escapeHtml(link.url)}" style="color:#1d4ed8;font-weight:bold;">${escapeHtml(label)}</a></p>`,
    ].join(''),
    text: [title.text, code, `${label}: ${link.url}`].join('\n'),
  };
}

/**
 * One piece of the message in both forms: the HTML (everything from data escaped) and the
 * plain text for mail programs that show no HTML.
 */
interface Part {
  html: string;
  text: string;
}

const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const INK = '#18181b';
const MUTED = '#52525b';
const LINE = '#e4e4e7';

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? '';
}

function paragraph(text: string, { strong = false } = {}): Part {
  const content = strong ? `<strong>${escapeHtml(text)}</strong>` : escapeHtml(text);
  return { html: `<p style="margin:0 0 16px;">${content}</p>`, text };
}

function heading(text: string): Part {
  return {
    html: `<h2 style="margin:24px 0 12px;font-size:18px;">${escapeHtml(text)}</h2>`,
    text: `${text}\n${'-'.repeat(text.length)}`,
  };
}

function pixPart(data: OrderEmailData, store: EmailStore): Part {
  const amount = formatCents(data.totalCents);
  const deadline = data.expiresAt
    ? formatDateTime(data.expiresAt, store.timeZone ?? 'America/Sao_Paulo', { zone: true })
    : null;
  const title = heading('Pague com PIX');
  const howTo = 'No app do seu banco, escolha pagar com PIX Copia e Cola e cole o código abaixo.';
  const code = data.pixCode ?? '';
  const html = [
    title.html,
    `<p style="margin:0 0 8px;">Valor: <strong>${escapeHtml(amount)}</strong></p>`,
    deadline
      ? `<p style="margin:0 0 8px;">Pague até <strong>${escapeHtml(deadline)}</strong>. Depois disso, o código expira.</p>`
      : '',
    `<p style="margin:0 0 8px;">${escapeHtml(howTo)}</p>`,
    `<p style="margin:0 0 16px;padding:12px;background:#f4f4f5;border:1px solid ${LINE};border-radius:6px;font-family:'Courier New',Courier,monospace;font-size:14px;word-break:break-all;">${escapeHtml(code)}</p>`,
  ].join('');
  const text = [
    title.text,
    `Valor: ${amount}`,
    ...(deadline ? [`Pague até ${deadline}. Depois disso, o código expira.`] : []),
    howTo,
    '',
    code,
  ].join('\n');
  return { html, text };
}

function summary(data: OrderEmailData): Part {
  const shipping = data.shippingCents === 0 ? 'Grátis' : formatCents(data.shippingCents);
  const adjustments = data.adjustments.map((adjustment) => ({
    label: adjustment.label,
    amount: formatSignedCents(adjustment.cents),
  }));
  const cell = `padding:8px 0;border-bottom:1px solid ${LINE};vertical-align:top;`;
  const rows = data.items
    .map(
      (item) =>
        `<tr><td style="${cell}">${escapeHtml(item.name)}<br><span style="color:${MUTED};font-size:14px;">${escapeHtml(formatCents(item.unitPriceCents))} cada</span></td>` +
        `<td style="${cell}text-align:center;">${item.quantity}</td>` +
        `<td style="${cell}text-align:right;white-space:nowrap;">${escapeHtml(formatCents(item.totalCents))}</td></tr>`,
    )
    .join('');
  const total = (label: string, value: string, strong = false) => {
    const weight = strong ? 'font-weight:bold;font-size:18px;' : '';
    return `<tr><th scope="row" colspan="2" style="padding:6px 0;text-align:right;font-weight:normal;${weight}">${escapeHtml(label)}</th><td style="padding:6px 0;text-align:right;white-space:nowrap;${weight}">${escapeHtml(value)}</td></tr>`;
  };
  const headerCell = (label: string, align: string) =>
    `<th scope="col" style="padding:8px 0;border-bottom:2px solid ${INK};text-align:${align};">${label}</th>`;
  const table =
    `<table style="width:100%;border-collapse:collapse;${FONT}font-size:16px;color:${INK};">` +
    `<thead><tr>${headerCell('Produto', 'left')}${headerCell('Qtd.', 'center')}${headerCell('Valor', 'right')}</tr></thead>` +
    `<tbody>${rows}</tbody>` +
    `<tfoot>${total('Subtotal', formatCents(data.subtotalCents))}${total(data.shippingLabel ?? 'Frete', shipping)}${adjustments.map((adjustment) => total(adjustment.label, adjustment.amount)).join('')}${total('Total', formatCents(data.totalCents), true)}</tfoot>` +
    `</table>`;

  const title = heading('Resumo do pedido');
  const address = heading('Endereço de entrega');
  const lines = data.items.map(
    (item) =>
      `${item.quantity} × ${item.name} (${formatCents(item.unitPriceCents)} cada): ${formatCents(item.totalCents)}`,
  );
  return {
    html: [
      title.html,
      table,
      address.html,
      `<p style="margin:0 0 16px;">${escapeHtml(data.addressLine)}</p>`,
    ].join(''),
    text: [
      title.text,
      ...lines,
      '',
      `Subtotal: ${formatCents(data.subtotalCents)}`,
      `${data.shippingLabel ?? 'Frete'}: ${shipping}`,
      ...adjustments.map((adjustment) => `${adjustment.label}: ${adjustment.amount}`),
      `Total: ${formatCents(data.totalCents)}`,
      '',
      address.text,
      data.addressLine,
    ].join('\n'),
  };
}

function contactLine(store: EmailStore): string | null {
  const channels = [store.contactEmail, store.contactPhone].filter(Boolean);
  return channels.length ? `Dúvidas? Fale com a gente: ${channels.join(' · ')}` : null;
}

/** The message's one button, if any, and the footer line that says why the reader got it. */
interface Frame {
  link?: { url: string; label: string };
  reason: string;
}

function orderFrame(store: EmailStore, data: OrderEmailData): Required<Frame> {
  return {
    link: { url: data.orderUrl, label: 'Acompanhar meu pedido' },
    reason: `Você recebeu este e-mail porque fez um pedido ${storeAfter('na', store.name)} com o endereço ${data.customerEmail}.`,
  };
}

function compose(
  store: EmailStore,
  subject: string,
  { link, reason }: Frame,
  parts: Part[],
): RenderedEmail {
  const contact = contactLine(store);
  const html = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;${FONT}font-size:16px;line-height:1.5;color:${INK};">
<tr><td style="padding:24px 24px 0;font-size:20px;font-weight:bold;">${escapeHtml(store.name)}</td></tr>
<tr><td style="padding:16px 24px 24px;">
<h1 style="margin:0 0 16px;font-size:22px;">${escapeHtml(subject)}</h1>
${parts.map((part) => part.html).join('\n')}
${link ? `<p style="margin:24px 0 0;"><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:12px 20px;background:${INK};color:#ffffff;border-radius:6px;text-decoration:none;font-weight:bold;">${escapeHtml(link.label)}</a></p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px 24px;border-top:1px solid ${LINE};font-size:14px;color:${MUTED};">
${contact ? `<p style="margin:0 0 8px;">${escapeHtml(contact)}</p>` : ''}
<p style="margin:0;">${escapeHtml(reason)}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  const text = [
    subject,
    '',
    ...parts.flatMap((part) => [part.text, '']),
    ...(link ? [`${link.label}: ${link.url}`, ''] : []),
    '--',
    store.name,
    ...(contact ? [contact] : []),
    reason,
    '',
  ].join('\n');
  return { subject, html, text };
}
