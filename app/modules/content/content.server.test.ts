import { describe, expect, it } from 'vitest';

import { narrowPaymentSwitches } from '~/modules/payments';
import { defaultSettings, type StoreSettings } from '~/modules/settings';

import { renderContentPage } from './content.server';
import { CONTENT_PAGE_SLUGS, type ContentPageSlug } from './pages';

const settingsWith = (patch: Partial<StoreSettings> = {}): StoreSettings => ({
  ...defaultSettings(),
  ...patch,
});

const html = (slug: ContentPageSlug, patch?: Partial<StoreSettings>) =>
  renderContentPage(slug, settingsWith(patch)).html;

/** The text a shopper reads, tags removed. */
const text = (slug: ContentPageSlug, patch?: Partial<StoreSettings>) =>
  html(slug, patch)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const CONTACTS: Partial<StoreSettings> = {
  contact_whatsapp: '5511987654321',
  contact_email: 'atendimento@loja.com.br',
  contact_phone: '(11) 4000-1234',
  contact_address: 'Rua das Flores, 100 - São Paulo/SP',
};

describe('default page texts', () => {
  it('give every page its title and a text', () => {
    for (const slug of CONTENT_PAGE_SLUGS) {
      const page = renderContentPage(slug, defaultSettings());
      expect(page.slug).toBe(slug);
      expect(page.html.length).toBeGreaterThan(100);
      expect(page.description).toContain('TechStore');
    }
    expect(
      CONTENT_PAGE_SLUGS.map((slug) => renderContentPage(slug, defaultSettings()).title),
    ).toEqual([
      'Sobre nós',
      'Política de troca e devolução',
      'Política de privacidade',
      'Perguntas frequentes',
      'Contato',
    ]);
  });

  it('promise the one return window of the settings, with the legal 7-day regret right', () => {
    const policy = text('politicadevolucao');
    expect(policy).toContain('30 dias corridos');
    expect(policy).toContain('art. 49');
    expect(policy).toContain('7 dias');
    for (const slug of CONTENT_PAGE_SLUGS) expect(text(slug)).not.toContain('60 dias');

    const longer = { return_window_days: 60 };
    expect(text('politicadevolucao', longer)).toContain('60 dias corridos');
    expect(text('sobre', longer)).toContain('60 dias corridos');
    expect(text('faq', longer)).toContain('60 dias corridos');
    expect(text('politicadevolucao', longer)).not.toContain('30 dias');
  });

  it('do not call the legal minimum window an extra', () => {
    const policy = text('politicadevolucao', { return_window_days: 7 });
    expect(policy).toContain('É o prazo do direito de arrependimento');
    expect(policy).not.toContain('vai além do garantido por lei');
    expect(text('politicadevolucao')).toContain('vai além do garantido por lei');
  });

  it('cover defects with photos or video, freight paid by the store, refund and refusal', () => {
    const policy = text('politicadevolucao');
    expect(policy).toContain('fotos ou um vídeo');
    expect(policy).toContain('o frete de ida e de volta é por nossa conta');
    expect(policy).toContain('número do pedido');
    expect(policy).toContain('devolvemos o valor total pago');
    expect(policy).toContain('com o frete por conta do cliente');
  });

  it('state the delivery days after payment confirmation', () => {
    expect(text('faq')).toContain('até 7 dias úteis após a confirmação do pagamento');
    expect(text('sobre', { estimated_delivery_days: 12 })).toContain('até 12 dias úteis');
    expect(text('faq', { estimated_delivery_days: 1 })).toContain('até 1 dia útil após');
  });

  it('list only the enabled payment methods', () => {
    const all = text('faq', { max_installments: 12 });
    expect(all).toContain('Aceitamos PIX, cartão de crédito em até 12x sem juros');
    expect(all).toContain('boleto bancário');
    expect(all).toContain('Posso parcelar a compra?');
    expect(all).toContain('você pode parcelar em até 12x sem juros');
    // Only a store that pays the interest says 'sem juros'.
    const withInterest = text('faq', { max_installments: 12, installments_interest_free: false });
    expect(withInterest).toContain('cartão de crédito em até 12x');
    expect(withInterest).not.toContain('sem juros');
    // One payment only: cards without instalments.
    const single = text('faq');
    expect(single).toContain('Aceitamos PIX, cartão de crédito, cartão de débito');
    expect(single).not.toContain('sem juros');
    expect(single).not.toContain('Posso parcelar');

    const pixOnly = {
      enable_credit_card: false,
      enable_debit_card: false,
      enable_boleto: false,
      enable_paypal: false,
    };
    const faq = text('faq', pixOnly);
    expect(faq).toContain('Aceitamos PIX.');
    expect(faq).not.toContain('12x');
    expect(faq).not.toContain('boleto');
    expect(text('sobre', pixOnly)).toContain('Pagamento seguro: aceitamos PIX.');
    expect(text('sobre', { ...pixOnly, enable_pix: false })).toContain(
      'as formas de pagamento disponíveis aparecem ao finalizar a compra.',
    );
  });

  it('name no card, boleto or instalments when checkout takes PIX only, whatever the switches', () => {
    const everything = settingsWith({ max_installments: 12 });
    const pixCheckout = narrowPaymentSwitches(everything, ['pix']);
    for (const slug of ['faq', 'sobre', 'politicadevolucao', 'politicaprivacidade'] as const) {
      const page = renderContentPage(slug, pixCheckout).html.toLowerCase();
      for (const word of ['cartão', 'boleto', 'parcel', 'sem juros', 'paypal']) {
        expect(page, `${slug}: ${word}`).not.toContain(word);
      }
    }
    expect(renderContentPage('faq', pixCheckout).html).toContain('Aceitamos PIX.');
    // The same switches with a provider that took cards would name them.
    const cardCheckout = narrowPaymentSwitches(everything, ['pix', 'credit_card']);
    expect(renderContentPage('faq', cardCheckout).html).toContain(
      'Aceitamos PIX e cartão de crédito em até 12x sem juros.',
    );
  });

  it('describe the shipping mode of the settings', () => {
    expect(text('faq')).toContain('Frete grátis para todo o Brasil, sem valor mínimo de compra.');
    const flat = {
      shipping_mode: 'flat_rate',
      default_shipping_cost_cents: 1500,
      free_shipping_threshold_cents: 19_900,
    } as const;
    expect(text('faq', flat)).toContain(
      'Frete fixo de R$ 15,00 para todo o Brasil, e grátis em compras a partir de R$ 199,00.',
    );
    expect(text('sobre', { ...flat, free_shipping_threshold_cents: 0 })).toContain(
      'Entrega: frete fixo de R$ 15,00 para todo o Brasil.',
    );
    expect(text('faq', flat)).not.toContain('Frete grátis para todo o Brasil');
  });

  it('show contact channels only when they are configured', () => {
    for (const slug of ['sobre', 'politicadevolucao', 'politicaprivacidade', 'faq'] as const) {
      const bare = html(slug);
      expect(bare).not.toMatch(/WhatsApp|E-mail:|Telefone|Endereço/);
      expect(bare).toContain('href="/contato"');
    }

    const returns = html('politicadevolucao', CONTACTS);
    expect(returns).toContain('<a href="https://wa.me/5511987654321">+55 (11) 98765-4321</a>');
    expect(returns).toContain(
      '<a href="mailto:atendimento@loja.com.br">atendimento@loja.com.br</a>',
    );
    expect(returns).toContain('Telefone: (11) 4000-1234');
    expect(returns).toContain('Endereço: Rua das Flores, 100 - São Paulo/SP');

    const emailOnly = html('politicaprivacidade', { contact_email: 'dpo@loja.com.br' });
    expect(emailOnly).toContain('mailto:dpo@loja.com.br');
    expect(emailOnly).not.toMatch(/WhatsApp|Telefone|Endereço/);
  });

  it('cover the LGPD topics in the privacy policy', () => {
    const policy = text('politicaprivacidade');
    for (const topic of [
      'LGPD',
      'CPF',
      'carrinho',
      'só são carregadas se você aceitar',
      'art. 7º',
      'provedores de pagamento',
      'transportadoras',
      'art. 18',
      'revogação do consentimento',
      'ANPD',
      '5 anos',
    ]) {
      expect(policy).toContain(topic);
    }
  });

  it('group the FAQ in three sections of collapsible questions', () => {
    const faq = html('faq');
    expect([...faq.matchAll(/<h2>(.*?)<\/h2>/g)].map((match) => match[1])).toEqual([
      'Produtos',
      'Compra e pagamento',
      'Envio, entrega e devoluções',
    ]);
    expect(faq).toContain('<details><summary>Quanto custa o frete?</summary><p>');
  });

  it('adapt the contact text to whether there are channels', () => {
    expect(text('contato', CONTACTS)).toContain('Fale com a gente por um dos canais abaixo');
    expect(text('contato')).not.toContain('canais abaixo');
    expect(html('contato')).toContain('href="/faq"');
  });

  it('link only to pages the store has', () => {
    for (const slug of CONTENT_PAGE_SLUGS) {
      for (const [, href] of html(slug, CONTACTS).matchAll(/href="([^"]*)"/g)) {
        expect(href).toMatch(
          /^(?:https:\/\/wa\.me\/\d+|mailto:.+|\/(?:sobre|politicadevolucao|politicaprivacidade|faq|contato|conta))$/,
        );
      }
    }
  });

  it("name the shopper's LGPD rights in their account", () => {
    const policy = text('politicaprivacidade', {});
    expect(policy).toContain('Baixar meus dados: um arquivo com tudo');
    expect(policy).toContain('Excluir minha conta: apagamos');
    expect(policy).toContain('Os pedidos continuam guardados pelo prazo que a lei fiscal exige.');
    expect(html('politicaprivacidade', {})).toContain('href="/conta"');
  });

  it('name no product range', () => {
    const plain = { store_description: '' };
    for (const slug of CONTENT_PAGE_SLUGS) {
      expect(text(slug, plain)).not.toMatch(/tapete|tecnolog|eletrônic|família/i);
    }
  });

  it('show a store name with Markdown or HTML in it literally', () => {
    const name = '<b>Loja_*Top*</b> [x](javascript:alert(1))';
    const about = html('sobre', { store_name: name });
    expect(about).toContain('A &lt;b&gt;Loja_*Top*&lt;/b&gt; [x](javascript:alert(1)) é uma loja');
    expect(about).not.toContain('<b>');
    expect(about).not.toContain('<a href="javascript');
  });
});

describe('store texts', () => {
  it('replace the default and render their Markdown', () => {
    const custom = '# Dúvidas\n\nTexto **forte** com [link](https://loja.com.br/ajuda).\n\n## Mais';
    const faq = html('faq', { faq_page_text: custom });
    expect(faq).toBe(
      '<h2>Dúvidas</h2>\n<p>Texto <strong>forte</strong> com ' +
        '<a href="https://loja.com.br/ajuda">link</a>.</p>\n<h3>Mais</h3>',
    );
    expect(html('sobre', { about_page_text: '## Nossa história\n\nOlá!' })).toBe(
      '<h2>Nossa história</h2>\n<p>Olá!</p>',
    );
  });

  it('fall back to the default when blank', () => {
    expect(html('sobre', { about_page_text: '  \n ' })).toBe(html('sobre'));
  });

  it.each([
    ['about_page_text', 'sobre'],
    ['return_policy_text', 'politicadevolucao'],
    ['privacy_policy_text', 'politicaprivacidade'],
    ['faq_page_text', 'faq'],
    ['contact_page_text', 'contato'],
  ] as const)('never carry raw HTML or script links (%s)', (setting, slug) => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '[clique](javascript:alert(1)) [dois](JaVaScRiPt:alert(2)) <javascript:alert(3)>',
      '[dados](data:text/html;base64,PHNjcmlwdD4=) ![img](javascript:alert(4))',
      '<a href="javascript:alert(5)">link</a>',
    ].join('\n\n');
    const page = html(slug, { [setting]: hostile });
    expect(page).not.toMatch(/<script|<img src="x|<a href="javascript|onerror="/i);
    expect(page).not.toMatch(/href="(?:javascript|data):/i);
    expect(page).not.toMatch(/src="javascript:/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('rendering', () => {
  it('happens once per settings object, and again for changed settings', () => {
    const settings = settingsWith({ about_page_text: 'Primeira versão' });
    const first = renderContentPage('sobre', settings);
    expect(renderContentPage('sobre', settings)).toBe(first);
    expect(renderContentPage('faq', settings)).not.toBe(first);

    const changed = renderContentPage('sobre', { ...settings, about_page_text: 'Segunda versão' });
    expect(changed.html).toBe('<p>Segunda versão</p>');
    expect(renderContentPage('sobre', settings).html).toBe('<p>Primeira versão</p>');
  });
});
