import { describe, expect, it } from 'vitest';

import { defaultSettings, parseSettingsPatch, resolveSettings, settingsSchema } from './settings';
import { themeCss, themeVariables } from './theme';

describe('default settings', () => {
  it('follow the specification', () => {
    const settings = defaultSettings();
    expect(settings).toMatchObject({
      store_name: 'TechStore',
      primary_color: '#3b82f6',
      secondary_color: '#10b981',
      accent_color: '#f59e0b',
      home_title_color: '#ffffff',
      product_title_color: '#111827',
      product_description_color: '#6b7280',
      // Empty: they follow the primary colour, in a shade that reads (colors.test.ts).
      product_price_color: '',
      button_primary_color: '',
      button_primary_text_color: '',
      font_family: 'Roboto',
      heading_font: 'Montserrat',
      product_title_font_size: '1.25rem',
      product_description_font_size: '0.875rem',
      product_price_font_size: '1.5rem',
      card_border_radius: '8px',
      button_border_radius: '6px',
      card_padding: '1rem',
      button_padding_x: '1rem',
      button_padding_y: '0.5rem',
      hover_transition_duration: '200ms',
      button_hover_scale: 1.02,
      card_hover_scale: 1.01,
      currency: 'BRL',
      currency_symbol: 'R$',
      language: 'pt-BR',
      timezone: 'America/Sao_Paulo',
      enable_reviews: true,
      enable_notifications: true,
      enable_wishlist: true,
      enable_compare: true,
      enable_chat: false,
      maintenance_mode: false,
      enable_dark_mode: false,
      add_to_cart_text: 'Adicionar ao carrinho',
      buy_now_text: 'Comprar agora',
      empty_cart_message: 'Seu carrinho está vazio',
      no_products_message: 'Nenhum produto encontrado',
      min_order_value_cents: 0,
      free_shipping_threshold_cents: 10_000,
      tax_rate: 0,
      default_shipping_cost_cents: 1000,
      estimated_delivery_days: 7,
      products_per_page: 12,
      enable_local_pickup: false,
      enable_credit_card: true,
      enable_debit_card: true,
      enable_pix: true,
      enable_boleto: true,
      enable_paypal: false,
      return_window_days: 30,
      shipping_mode: 'free',
    });
  });

  it('are a fresh copy each time', () => {
    const first = defaultSettings();
    first.store_name = 'Outra';
    expect(defaultSettings().store_name).toBe('TechStore');
  });

  it('hold no field without a default', () => {
    expect(Object.keys(defaultSettings()).sort()).toEqual(Object.keys(settingsSchema.shape).sort());
  });
});

describe('resolveSettings', () => {
  it('fills every gap with defaults', () => {
    const settings = resolveSettings({ store_name: 'Loja da Ana', primary_color: '#FF0000' });
    expect(settings.store_name).toBe('Loja da Ana');
    expect(settings.primary_color).toBe('#ff0000');
    expect(settings.secondary_color).toBe('#10b981');
  });

  it('treats empty values as unset', () => {
    expect(resolveSettings({ store_name: '', primary_color: null }).store_name).toBe('TechStore');
  });

  it('replaces invalid stored values by their defaults instead of failing', () => {
    const settings = resolveSettings({
      primary_color: 'red;}body{display:none',
      card_padding: 'expression(alert(1))',
      logo_url: 'javascript:alert(1)',
      products_per_page: 'doze',
      unknown_field: 'x',
    });
    expect(settings.primary_color).toBe('#3b82f6');
    expect(settings.card_padding).toBe('1rem');
    expect(settings.logo_url).toBe('');
    expect(settings.products_per_page).toBe(12);
    expect(settings).not.toHaveProperty('unknown_field');
  });

  it('copes with nothing stored', () => {
    expect(resolveSettings(undefined)).toEqual(defaultSettings());
    expect(resolveSettings(null)).toEqual(defaultSettings());
  });
});

describe('parseSettingsPatch', () => {
  it('takes the abandoned checkouts delay in whole minutes, 0 turning it off', () => {
    expect(defaultSettings().abandoned_checkout_delay_minutes).toBe(120);
    expect(parseSettingsPatch({ abandoned_checkout_delay_minutes: 0 })).toEqual({
      success: true,
      values: { abandoned_checkout_delay_minutes: 0 },
    });
    for (const bad of [-1, 1.5, 'duas horas', 30 * 24 * 60 + 1]) {
      const result = parseSettingsPatch({ abandoned_checkout_delay_minutes: bad });
      expect(result.success, String(bad)).toBe(false);
    }
  });

  it('accepts and normalises valid values', () => {
    const result = parseSettingsPatch({
      primary_color: ' #ABCDEF ',
      card_border_radius: '12px',
      hover_transition_duration: '0.3s',
      logo_url: 'https://cdn.example.com/logo.png',
      favicon_url: '/uploads/favicon.png',
      contact_whatsapp: '+55 (11) 98765-4321',
      meta_robots: 'NoIndex, NoFollow',
      button_hover_scale: 1.05,
    });
    expect(result).toEqual({
      success: true,
      values: {
        primary_color: '#abcdef',
        card_border_radius: '12px',
        hover_transition_duration: '0.3s',
        logo_url: 'https://cdn.example.com/logo.png',
        favicon_url: '/uploads/favicon.png',
        contact_whatsapp: '5511987654321',
        meta_robots: 'noindex, nofollow',
        button_hover_scale: 1.05,
      },
    });
  });

  it('gives a pt-BR message for each bad field', () => {
    const result = parseSettingsPatch({
      primary_color: 'azul',
      card_padding: '1rem; color: red',
      hover_transition_duration: '200',
      logo_url: 'javascript:alert(1)',
      banner_url: 'https://x.com/a.png" onerror="alert(1)',
      facebook_url: '//evil.example/x',
      contact_email: 'não é e-mail',
      products_per_page: 0,
      font_family: 'Comic Sans',
      google_analytics_id: "G-1');alert('x",
      button_hover_scale: '1.05',
      currency: 'USD',
      store_name: 'x'.repeat(81),
      made_up: 1,
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual({
      primary_color: expect.stringContaining('Cor inválida'),
      card_padding: expect.stringContaining('Tamanho inválido'),
      hover_transition_duration: expect.stringContaining('Duração inválida'),
      logo_url: expect.stringContaining('Endereço inválido'),
      banner_url: expect.stringContaining('Endereço inválido'),
      facebook_url: expect.stringContaining('Endereço inválido'),
      contact_email: 'E-mail inválido.',
      products_per_page: 'Use um valor entre 4 e 96.',
      font_family: 'Escolha uma das fontes da lista.',
      google_analytics_id: expect.stringContaining('Identificador inválido'),
      button_hover_scale: 'Informe um número, como 1.02.',
      currency: 'A moeda da loja é o real (BRL).',
      store_name: 'Use no máximo 80 caracteres.',
      made_up: 'Configuração desconhecida.',
    });
  });

  it('takes a CNPJ, numeric or alphanumeric, with or without its mask, and keeps it masked', () => {
    for (const [typed, kept] of [
      ['12345678000195', '12.345.678/0001-95'],
      ['12.345.678/0001-95', '12.345.678/0001-95'],
      ['q0slfmbd7vx439', 'Q0.SLF.MBD/7VX4-39'],
      ['Q0.SLF.MBD/7VX4-39', 'Q0.SLF.MBD/7VX4-39'],
      ['', ''],
    ]) {
      expect(parseSettingsPatch({ cnpj: typed })).toEqual({
        success: true,
        values: { cnpj: kept },
      });
    }
    for (const wrong of ['12.345.678/0001-90', '00000000000000', 'Q0.SLF.MBD/7VX4-38', '123', 42]) {
      const result = parseSettingsPatch({ cnpj: wrong });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.errors.cnpj).toMatch(/CNPJ|Informe o CNPJ/);
    }
  });

  it('refuses input that is not an object', () => {
    expect(parseSettingsPatch('primary_color=red').success).toBe(false);
    expect(parseSettingsPatch(null).success).toBe(false);
    expect(parseSettingsPatch([]).success).toBe(false);
  });
});

describe('theme', () => {
  it('turns the settings into CSS custom properties', () => {
    const css = themeCss(
      resolveSettings({ primary_color: '#112233', heading_font: 'Playfair Display' }),
    );
    expect(css.startsWith(':root{')).toBe(true);
    expect(css).toContain('--store-primary-color:#112233');
    expect(css).toContain(
      "--store-font-heading:'Playfair Display', 'Playfair Display Fallback', system-ui, serif",
    );
    expect(css).toContain('--store-font-body:');
    expect(css).toContain('--store-card-border-radius:8px');
    expect(css).toContain('--store-button-hover-scale:1.02');
    expect(css).toContain('--store-hover-transition-duration:200ms');
  });

  it('covers every colour, size, radius, padding, scale and transition setting', () => {
    const variables = themeVariables(defaultSettings());
    // default_width_cm and its kin measure parcels, not the page.
    const styled = Object.keys(settingsSchema.shape).filter(
      (key) =>
        /_color$|_size$|_weight$|radius|padding|spacing|width|scale|duration/.test(key) &&
        !key.endsWith('_cm'),
    );
    for (const key of styled) {
      expect(variables).toHaveProperty(`--store-${key.replaceAll('_', '-')}`);
    }
  });

  it('cannot be broken out of by stored values', () => {
    const css = themeCss(
      resolveSettings({ primary_color: '#fff;}</style><script>alert(1)</script>' }),
    );
    expect(css).not.toContain('<');
    expect(css.match(/[{}]/g)).toEqual(['{', '}']);
  });
});
