import { describe, expect, it } from 'vitest';

import {
  abandonedCheckoutEmail,
  invoiceAuthorizedEmail,
  orderCancelledEmail,
  orderDeliveredEmail,
  orderLinkEmail,
  orderReceivedEmail,
  orderShippedEmail,
  trackingCodeChangedEmail,
  paymentConfirmedEmail,
  passwordResetEmail,
  shopperCodeEmail,
  restockEmail,
  type OrderEmailData,
} from './emails';

const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406639.705802BR5913Loja Exemplo6009SAO PAULO62070503***6304ABCD';

const data = (patch: Partial<OrderEmailData> = {}): OrderEmailData => ({
  number: '#1042',
  customerName: 'Ana <b>"Bia"</b> & Souza',
  customerEmail: 'ana@example.com',
  items: [
    {
      name: 'Monitor 27" <script>alert(1)</script>',
      quantity: 2,
      unitPriceCents: 29990,
      totalCents: 59980,
    },
    { name: 'Cabo USB-C', quantity: 1, unitPriceCents: 3990, totalCents: 3990 },
  ],
  subtotalCents: 63970,
  shippingCents: 0,
  adjustments: [],
  totalCents: 63970,
  addressLine: 'Rua A & B, 10, Centro, São Paulo - SP, CEP 01001-000',
  pixCode: PIX_CODE,
  expiresAt: new Date('2025-03-10T17:30:00Z'),
  orderUrl: 'https://loja.test/order-confirmation?orderId=6f1c&x=<y>',
  ...patch,
});

const store = { name: 'Loja <Exemplo> & Cia', contactEmail: 'oi@loja.test' };

describe('orderReceivedEmail', () => {
  it('names the order by its number, in the subject and both bodies', () => {
    const email = orderReceivedEmail(data(), store);
    expect(email.subject).toBe('Recebemos seu pedido #1042');
    expect(email.html).toContain('#1042');
    expect(email.text).toContain('#1042');
  });

  it('escapes everything that comes from the order', () => {
    const { html } = orderReceivedEmail(data(), store);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<Exemplo>');
    expect(html).toContain('Monitor 27&quot; &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Olá, Ana!');
    expect(html).toContain('Loja &lt;Exemplo&gt; &amp; Cia');
    expect(html).toContain('Rua A &amp; B, 10');
    expect(html).toContain(
      'href="https://loja.test/order-confirmation?orderId=6f1c&amp;x=&lt;y&gt;"',
    );
    // Only the markup of the template itself.
    expect(
      html.replace(/<\/?[a-z][a-z0-9]*(\s[^<>]*)?>/g, '').replace(/<!doctype html>/, ''),
    ).not.toMatch(/[<>]/);
  });

  it('gives the PIX code, the amount and the deadline in the store’s time zone', () => {
    const email = orderReceivedEmail(data(), store);
    for (const body of [email.html, email.text]) {
      expect(body).toContain('Pague com PIX');
      expect(body).toContain('R$ 639,70');
      // 17:30 UTC is 14:30 in São Paulo.
      expect(body).toContain('10/03/2025 às 14:30 (Horário Padrão de Brasília)');
    }
    expect(email.html).toContain(PIX_CODE);
    expect(email.text.split('\n')).toContain(PIX_CODE);

    const manaus = orderReceivedEmail(data(), { ...store, timeZone: 'America/Manaus' });
    expect(manaus.text).toContain('10/03/2025 às 13:30 (Horário Padrão do Amazonas)');
  });

  it('lists the items and totals, with free shipping said so', () => {
    const { text, html } = orderReceivedEmail(data(), store);
    expect(text).toContain('2 × Monitor 27" <script>alert(1)</script> (R$ 299,90 cada): R$ 599,80');
    expect(text).toContain('1 × Cabo USB-C (R$ 39,90 cada): R$ 39,90');
    expect(text).toContain('Subtotal: R$ 639,70');
    expect(text).toContain('Frete: Grátis');
    expect(text).toContain('Total: R$ 639,70');
    expect(html).toContain('<th scope="col"');
    expect(html).toContain('R$ 599,80');

    const paidShipping = orderReceivedEmail(
      data({ shippingCents: 1500, totalCents: 65470 }),
      store,
    );
    expect(paidShipping.text).toContain('Frete: R$ 15,00');
    expect(paidShipping.text).toContain('Total: R$ 654,70');
  });

  it('names the carrier service the shopper chose', () => {
    const { text, html } = orderReceivedEmail(
      data({ shippingCents: 4590, shippingLabel: 'Frete (Correios SEDEX)', totalCents: 68560 }),
      store,
    );
    expect(text).toContain('Frete (Correios SEDEX): R$ 45,90');
    expect(html).toContain('Frete (Correios SEDEX)</th>');
  });

  it('shows the PIX discount between shipping and the total it was taken from', () => {
    const plain = orderReceivedEmail(data(), store);
    expect(plain.text).not.toContain('Desconto');
    expect(plain.html).not.toContain('Desconto');

    // A 10% coupon on R$ 639,70 is R$ 63,97, then 10% PIX on R$ 575,73 is R$ 57,57: the shopper
    // pays R$ 518,16 plus R$ 15,00 shipping. Each adjustment is its own line, in its order.
    const discounted = orderReceivedEmail(
      data({
        shippingCents: 1500,
        adjustments: [
          { label: 'Cupom BEMVINDO10', cents: -6397 },
          { label: 'Desconto PIX (10%)', cents: -5757 },
        ],
        totalCents: 63970 + 1500 - 6397 - 5757,
      }),
      store,
    );
    const lines = discounted.text.split('\n');
    const frete = lines.indexOf('Frete: R$ 15,00');
    expect(lines.slice(frete, frete + 4)).toEqual([
      'Frete: R$ 15,00',
      'Cupom BEMVINDO10: − R$ 63,97',
      'Desconto PIX (10%): − R$ 57,57',
      'Total: R$ 533,16',
    ]);
    expect(discounted.html).toContain('Cupom BEMVINDO10');
    expect(discounted.html).toContain('− R$ 57,57');
    // The PIX to pay is for the discounted total.
    expect(discounted.text).toContain('Valor: R$ 533,16');
  });

  it('leaves the PIX part out when there is no code', () => {
    const email = orderReceivedEmail(data({ pixCode: null, expiresAt: null }), store);
    expect(email.html).not.toContain('Pague com PIX');
    expect(email.text).toContain('assim que o pagamento for confirmado');
  });

  it('links to the order and gives the store’s contacts, in Portuguese', () => {
    const { html, text } = orderReceivedEmail(data(), {
      ...store,
      contactPhone: '(11) 4000-1234',
    });
    expect(html).toContain('<html lang="pt-BR">');
    expect(text).toContain(
      'Acompanhar meu pedido: https://loja.test/order-confirmation?orderId=6f1c&x=<y>',
    );
    expect(text).toContain('Dúvidas? Fale com a gente: oi@loja.test · (11) 4000-1234');
    expect(orderReceivedEmail(data(), { name: 'Loja' }).text).not.toContain('Dúvidas?');
  });
});

describe('invoiceAuthorizedEmail', () => {
  it("gives the note's number, its key in groups of four and the DANFE's link", () => {
    const key = '35261211222333000181550010000000071000000078';
    const email = invoiceAuthorizedEmail(
      data({ invoice: { number: '000007', key, danfeUrl: 'https://bling.test/danfe/7.pdf' } }),
      store,
    );
    expect(email.subject).toBe('Nota fiscal do pedido #1042');
    for (const body of [email.html, email.text]) {
      expect(body).toContain('NF-e nº 000007');
      expect(body).toContain('3526 1211 2223 3300 0181 5500 1000 0000 0710 0000 0078');
      expect(body).toContain('https://bling.test/danfe/7.pdf');
    }
  });
});

describe('paymentConfirmedEmail', () => {
  it('confirms the payment with the delivery estimate, the items and a link', () => {
    const email = paymentConfirmedEmail(
      data({ estimatedDelivery: 'sexta-feira, 14 de março de 2025' }),
      store,
    );
    expect(email.subject).toBe('Pagamento confirmado: pedido #1042');
    for (const body of [email.html, email.text]) {
      expect(body).toContain('Previsão de entrega: sexta-feira, 14 de março de 2025.');
      expect(body).toContain('R$ 599,80');
      expect(body).toContain('Total');
    }
    expect(email.text).toContain('https://loja.test/order-confirmation?orderId=6f1c');
    // Paid: no code to pay with any more.
    expect(email.html).not.toContain(PIX_CODE);
    expect(email.html).not.toContain('<script>');
  });

  it('says nothing of the delivery date when none is known', () => {
    expect(paymentConfirmedEmail(data(), store).text).not.toContain('Previsão de entrega');
  });
});

describe('status e-mails (staff changes)', () => {
  it('gives the tracking code when the order ships', () => {
    const email = orderShippedEmail(data({ trackingCode: 'AA123456789BR' }), store);
    expect(email.subject).toBe('Seu pedido #1042 foi enviado');
    for (const body of [email.html, email.text]) {
      expect(body).toContain('AA123456789BR');
      expect(body).toContain('Código de rastreio');
    }
    expect(email.html).not.toContain(PIX_CODE);
    expect(orderShippedEmail(data({ trackingCode: '<b>1</b>' }), store).html).toContain(
      '&lt;b&gt;1&lt;/b&gt;',
    );
  });

  it("links a Correios code to the Correios' tracking page, and any other code not at all", () => {
    const correios = orderShippedEmail(data({ trackingCode: 'AA123456789BR' }), store);
    const page = 'https://rastreamento.correios.com.br/app/index.php?objetos=AA123456789BR';
    expect(correios.html).toContain(`<a href="${page}"`);
    expect(correios.html).toContain('Rastrear nos Correios');
    expect(correios.text).toContain(`Rastrear nos Correios: ${page}`);
    const other = orderShippedEmail(data({ trackingCode: 'JAD-0001234' }), store);
    expect(other.html).toContain('JAD-0001234');
    expect(other.html).not.toContain('rastreamento.correios');
    expect(other.text).toContain('site da transportadora');
    const changed = trackingCodeChangedEmail(data({ trackingCode: 'AB987654321BR' }), store);
    expect(changed.html).toContain('objetos=AB987654321BR');
  });

  it('gives the new tracking code when staff correct it', () => {
    const email = trackingCodeChangedEmail(data({ trackingCode: 'AB987654321BR' }), store);
    expect(email.subject).toBe('Novo código de rastreio do pedido #1042');
    for (const body of [email.html, email.text]) {
      expect(body).toContain('AB987654321BR');
      expect(body).toContain('o anterior não vale mais');
    }
  });

  it('says the order arrived', () => {
    const email = orderDeliveredEmail(data(), store);
    expect(email.subject).toBe('Seu pedido #1042 foi entregue');
    expect(email.text).toContain('foi entregue');
    expect(email.text).toContain('Acompanhar meu pedido: https://loja.test/order-confirmation');
    expect(email.text).not.toContain('Avaliar os produtos');
  });

  it('invites the buyer to review what they bought, with the order page still linked', () => {
    const reviewUrl = 'https://loja.test/avaliar?orderId=6f1c&chave=k&x=<y>';
    const email = orderDeliveredEmail(data({ reviewUrl }), store);
    expect(email.text).toContain(`Avaliar os produtos: ${reviewUrl}`);
    expect(email.text).toContain('Acompanhar meu pedido: https://loja.test/order-confirmation');
    expect(email.text).toContain('Conte para outros clientes o que achou');
    expect(email.html).toContain(
      'href="https://loja.test/avaliar?orderId=6f1c&amp;chave=k&amp;x=&lt;y&gt;"',
    );
    expect(email.html).not.toContain('<y>');
  });

  it('says whether the shopper is owed a refund when the order is cancelled', () => {
    const unpaid = orderCancelledEmail(data(), store);
    expect(unpaid.subject).toBe('Seu pedido #1042 foi cancelado');
    expect(unpaid.text).toContain('Nenhum valor foi cobrado');
    expect(unpaid.html).not.toContain(PIX_CODE);
    const paid = orderCancelledEmail(data({ wasPaid: true }), store);
    expect(paid.text).toContain('O valor pago será devolvido a você.');
  });
});

describe('abandonedCheckoutEmail', () => {
  const left = {
    email: 'ana@example.com',
    customerName: 'Ana <b>Souza</b>',
    items: [{ name: 'Relógio <Pro> & Cia', quantity: 2 }],
    recoverUrl: 'https://loja.test/carrinho/recuperar?chave=abc',
    unsubscribeUrl: 'https://loja.test/carrinho/descadastrar?chave=def',
  };

  it('lists the cart without prices, links back to it, and unsubscribes in one click', () => {
    const email = abandonedCheckoutEmail(left, store);
    expect(email.subject).toBe('Seu carrinho está esperando por você');
    expect(email.text).toContain('Olá, Ana!');
    expect(email.text).toContain('- 2 × Relógio <Pro> & Cia');
    expect(email.text).not.toContain('R$');
    expect(email.text).toContain(
      'Voltar ao meu carrinho: https://loja.test/carrinho/recuperar?chave=abc',
    );
    expect(email.html).toContain('Relógio &lt;Pro&gt; &amp; Cia');
    expect(email.html).not.toContain('<Pro>');
    expect(email.html).toContain('href="https://loja.test/carrinho/descadastrar?chave=def"');
    expect(email.text).toContain('Este é o único e-mail sobre este carrinho.');
    // RFC 2369 and RFC 8058: mail programs show their own 'Cancelar inscrição'.
    expect(email.headers).toEqual({
      'List-Unsubscribe': '<https://loja.test/carrinho/descadastrar?chave=def>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});

describe('restockEmail', () => {
  const restock = {
    email: 'ana@example.com',
    productName: 'Relógio <Pro> & Cia',
    productUrl: 'https://loja.test/product/relogio-pro?x=<y>',
  };

  it('says the product is back, names it in the subject and links to its page', () => {
    const email = restockEmail(restock, store);
    expect(email.subject).toBe('Chegou: Relógio <Pro> & Cia');
    expect(email.text).toContain('Relógio <Pro> & Cia voltou ao estoque');
    expect(email.text).toContain('Ver o produto: https://loja.test/product/relogio-pro?x=<y>');
    expect(email.html).toContain('href="https://loja.test/product/relogio-pro?x=&lt;y&gt;"');
    expect(email.html).toContain('Relógio &lt;Pro&gt; &amp; Cia');
    expect(email.html).not.toContain('<Pro>');
    // Why the reader got it: the address they left, and that no more will follow.
    expect(email.text).toContain('ana@example.com');
    expect(email.text).toContain('Este é o único aviso sobre ele.');
    expect(email.text).not.toContain('pedido na');
  });
});

describe('passwordResetEmail', () => {
  it('links the reset page, says until when and that ignoring it changes nothing', () => {
    const email = passwordResetEmail(
      {
        email: 'gerente@loja.test',
        fullName: 'Gerente <da> Loja',
        resetUrl: 'https://admin.loja.test/admin/redefinir-senha?chave=abc',
        expiresAt: new Date('2026-03-10T17:30:00Z'),
      },
      { ...store, timeZone: 'America/Sao_Paulo' },
    );
    expect(email.subject).toBe('Redefinir a senha do painel da loja Loja <Exemplo> & Cia');
    expect(email.text).toContain(
      'Criar uma nova senha: https://admin.loja.test/admin/redefinir-senha?chave=abc',
    );
    expect(email.text).toContain('Olá, Gerente!');
    expect(email.text).toContain('10/03/2026');
    expect(email.text).toContain('14:30');
    expect(email.text).toContain('a sua senha continua a mesma');
    expect(email.html).not.toContain('<da>');
  });
});

describe('shopperCodeEmail', () => {
  const code = (purpose: 'sign-in' | 'delete') =>
    shopperCodeEmail(
      {
        code: '042917',
        email: 'ana@example.com',
        purpose,
        expiresAt: new Date('2026-03-10T17:30:00Z'),
      },
      { ...store, timeZone: 'America/Sao_Paulo' },
    );

  it('gives the six digits on a line of their own, until when, and that ignoring it is safe', () => {
    const email = code('sign-in');
    expect(email.subject).toBe('Seu código para entrar na loja Loja <Exemplo> & Cia');
    expect(email.text).toMatch(/^042917$/m);
    expect(email.html).toContain('<strong>042917</strong>');
    expect(email.text).toContain('O código pode ser usado uma vez e vale até 10/03/2026');
    expect(email.text).toContain('14:30');
    expect(email.text).toContain('Se não foi você, ignore esta mensagem.');
  });

  it("says a deletion's code deletes nothing unless typed", () => {
    const email = code('delete');
    expect(email.subject).toBe('Código para excluir sua conta na loja Loja <Exemplo> & Cia');
    expect(email.text).toContain('confirmar a exclusão da sua conta');
    expect(email.text).toContain('nada será excluído');
  });
});

describe('orderLinkEmail', () => {
  it("carries the order's link, its number and what was bought, and says why it came", () => {
    const email = orderLinkEmail(data(), store);
    expect(email.subject).toBe('O link do seu pedido #1042');
    expect(email.text).toContain(
      'Acompanhar meu pedido: https://loja.test/order-confirmation?orderId=6f1c&x=<y>',
    );
    expect(email.html).toContain(
      'href="https://loja.test/order-confirmation?orderId=6f1c&amp;x=&lt;y&gt;"',
    );
    expect(email.text).toContain('Olá, Ana!');
    expect(email.text).toContain('2 × Monitor 27"');
    expect(email.text).toContain("'Encontrar meu pedido'");
    expect(email.text).toContain('Se não foi você, ignore esta mensagem');
    expect(email.html).not.toContain('<script>');
  });

  it('never carries the PIX code, which the order page shows to whoever opens the link', () => {
    expect(orderLinkEmail(data(), store).text).not.toContain(PIX_CODE);
  });
});
