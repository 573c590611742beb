import { describe, expect, it } from 'vitest';

import { parseFormData } from '~/lib/form';

import {
  fieldMaxLength,
  previewSettings,
  SETTINGS_FORM_FIELDS,
  SETTINGS_TABS,
  settingsFormSchema,
  settingsFormValues,
  settingsTabFrom,
  tabOfField,
} from './admin-form';
import { defaultSettings, settingsSchema, type SettingKey, type StoreSettings } from './settings';

/** The form as the page sends it: checkboxes that are off send nothing. */
function sentForm(settings: StoreSettings, changes: Record<string, string> = {}): FormData {
  const values = { ...settingsFormValues(settings), ...changes };
  const form = new FormData();
  for (const spec of SETTINGS_FORM_FIELDS) {
    const value = values[spec.key] ?? '';
    if (spec.kind !== 'checkbox' || value !== '') form.append(spec.key, value);
  }
  return form;
}

/** Settings the form leaves out on purpose, and why. */
const EXCLUDED_SETTINGS: Readonly<Partial<Record<SettingKey, string>>> = {
  currency: 'Fixed: the store sells in Brazil, in reais (the page states it).',
  currency_symbol: 'Fixed: R$ (the page states it).',
  language: 'Fixed: pt-BR (the page states it).',
  enable_notifications: 'No part of the store reads it: a switch that changes nothing misleads.',
  enable_compare: 'The store has no product comparison: a switch that changes nothing misleads.',
  tax_rate: 'No page shows it (prices in Brazil include taxes): nothing would change.',
  privacy_policy_url: 'Nothing links it: the store has its own privacy page (Páginas tab).',
  terms_of_service_url: 'Nothing links it yet: a field that changes nothing misleads.',
  view_product_text: 'No page shows a "view product" button: nothing would change.',
  success_message: 'No page shows it: the storefront says what happened in its own words.',
  error_message: 'No page shows it: the storefront says what went wrong in its own words.',
};

describe('the settings tab map', () => {
  it('has the eight tabs of the SPEC in order, plus the content pages', () => {
    expect(SETTINGS_TABS.map((tab) => tab.label)).toEqual([
      'Básico',
      'Design',
      'Tipografia',
      'Layout',
      'Contato',
      'Redes sociais',
      'SEO & Analytics',
      'Avançado',
      'Páginas',
    ]);
  });

  it('puts every setting in exactly one place: a tab, or excluded with a reason', () => {
    const places = new Map<string, string[]>();
    const add = (key: string, place: string) =>
      places.set(key, [...(places.get(key) ?? []), place]);
    for (const tab of SETTINGS_TABS) {
      for (const group of tab.groups) for (const spec of group.fields) add(spec.key, tab.id);
    }
    for (const [key, reason] of Object.entries(EXCLUDED_SETTINGS)) {
      expect(reason, key).toMatch(/\w{3,}/);
      add(key, 'excluded');
    }

    const keys = Object.keys(settingsSchema.shape);
    expect([...places.keys()].filter((key) => !keys.includes(key))).toEqual([]);
    for (const key of keys) expect(places.get(key), key).toHaveLength(1);
  });

  it("puts the header banner with the store's images on Básico, not in the save bar", () => {
    const images = SETTINGS_TABS.find((tab) => tab.id === 'basico')!.groups.find(
      (group) => group.title === 'Imagens',
    )!;
    expect(images.fields.find((spec) => spec.key === 'header_banner_url')?.label).toBe(
      'Faixa acima do cabeçalho',
    );
    expect(tabOfField('header_banner_url')).toBe('basico');
    expect(tabOfField('nada')).toBeNull();
    expect(tabOfField('primary_color')).toBe('design');
    expect(tabOfField('about_page_text')).toBe('paginas');
  });

  it('types the inputs as the SPEC asks', () => {
    const kind = (key: string) => SETTINGS_FORM_FIELDS.find((spec) => spec.key === key)?.kind;
    expect(kind('logo_url')).toBe('url');
    expect(kind('banner_url')).toBe('url');
    expect(kind('instagram_url')).toBe('url');
    expect(kind('header_banner_url')).toBe('url');
    expect(kind('contact_email')).toBe('email');
    expect(kind('contact_phone')).toBe('tel');
    expect(kind('primary_color')).toBe('color');
    expect(kind('enable_reviews')).toBe('checkbox');
    expect(kind('products_per_page')).toBe('integer');
    expect(kind('default_shipping_cost_cents')).toBe('money');
    expect(kind('custom_head_scripts')).toBe('script');
    const fonts = SETTINGS_FORM_FIELDS.find((spec) => spec.key === 'font_family')?.options;
    expect(fonts?.map((option) => option.value)).toHaveLength(15);
    // Every colour setting is a colour input.
    for (const spec of SETTINGS_FORM_FIELDS) {
      if (spec.key.endsWith('_color')) expect(spec.kind, spec.key).toBe('color');
    }
  });

  it('offers exactly the values each select setting accepts', () => {
    for (const spec of SETTINGS_FORM_FIELDS.filter((field) => field.kind === 'select')) {
      for (const option of spec.options ?? []) {
        expect(settingsSchema.shape[spec.key].safeParse(option.value).success, option.value).toBe(
          true,
        );
      }
    }
  });

  it('opens the tab named in the URL, or the first one', () => {
    expect(settingsTabFrom('avancado')).toBe('avancado');
    expect(settingsTabFrom('nada')).toBe('basico');
    expect(settingsTabFrom(null)).toBe('basico');
  });
});

describe('the settings form', () => {
  it('shows the settings as staff read them (reais, ticked boxes)', () => {
    const values = settingsFormValues(defaultSettings());
    expect(values.default_shipping_cost_cents).toBe('10,00');
    expect(values.free_shipping_threshold_cents).toBe('100,00');
    expect(values.enable_reviews).toBe('on');
    expect(values.enable_chat).toBe('');
    expect(values.button_hover_scale).toBe('1.02');
    expect(values).not.toHaveProperty('currency');
  });

  it('reads back what it shows, unchanged', () => {
    const settings = defaultSettings();
    const parsed = parseFormData(sentForm(settings), settingsFormSchema);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    for (const spec of SETTINGS_FORM_FIELDS) {
      expect(parsed.data[spec.key], spec.key).toEqual(settings[spec.key]);
    }
  });

  it('turns reais into cents, commas into decimals, and absent boxes into false', () => {
    const form = sentForm(defaultSettings(), {
      default_shipping_cost_cents: '15,90',
      button_hover_scale: '1,05',
      products_per_page: '24',
    });
    form.delete('enable_reviews');
    const parsed = parseFormData(form, settingsFormSchema);
    expect(parsed).toMatchObject({
      ok: true,
      data: {
        default_shipping_cost_cents: 1590,
        button_hover_scale: 1.05,
        products_per_page: 24,
        enable_reviews: false,
        enable_wishlist: true,
      },
    });
  });

  it('gives each bad field its own pt-BR message', () => {
    const parsed = parseFormData(
      sentForm(defaultSettings(), {
        primary_color: 'azul',
        logo_url: 'javascript:alert(1)',
        default_shipping_cost_cents: 'dez reais',
        min_order_value_cents: '200.000,00',
        products_per_page: 'muitos',
        estimated_delivery_days: '-3',
        card_hover_scale: '3',
        pix_merchant_name: 'Um nome muito longo para caber no PIX',
      }),
      settingsFormSchema,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors).toEqual({
      primary_color: 'Cor inválida: use o formato #RRGGBB (por exemplo #3b82f6).',
      logo_url: 'Endereço inválido: use um link que comece com https:// (ou http://).',
      default_shipping_cost_cents: 'Valor inválido: informe em reais, como 10,00.',
      min_order_value_cents: 'Use no máximo 100.000,00 reais.',
      products_per_page: 'Informe um número inteiro.',
      estimated_delivery_days: 'Use um valor entre 1 e 120.',
      card_hover_scale: 'A escala deve ficar entre 0.5 e 2.',
      pix_merchant_name: 'Use no máximo 25 caracteres.',
    });
  });

  it('keeps the anti-hoarding limits within their bounds', () => {
    const read = (values: Record<string, string>) =>
      parseFormData(sentForm(defaultSettings(), values), settingsFormSchema);
    expect(read({ max_quantity_per_item: '5', max_pending_orders: '2' })).toMatchObject({
      ok: true,
      data: { max_quantity_per_item: 5, max_pending_orders: 2 },
    });
    expect(read({ max_quantity_per_item: '0', max_pending_orders: '51' })).toMatchObject({
      ok: false,
      fieldErrors: {
        max_quantity_per_item: 'Use um valor entre 1 e 999.',
        max_pending_orders: 'Use um valor entre 1 e 50.',
      },
    });
    expect(read({ max_quantity_per_item: '1000', max_pending_orders: '2,5' })).toMatchObject({
      ok: false,
      fieldErrors: {
        max_quantity_per_item: 'Use um valor entre 1 e 999.',
        max_pending_orders: 'Informe um número inteiro.',
      },
    });
  });

  it('refuses a form missing a field rather than guessing it', () => {
    const form = sentForm(defaultSettings());
    form.delete('store_name');
    const parsed = parseFormData(form, settingsFormSchema);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.fieldErrors)).toEqual(['store_name']);
  });
});

describe('the live preview', () => {
  it('takes the valid unsaved values and keeps the saved ones for the rest', () => {
    const saved = { ...defaultSettings(), store_name: 'Loja Salva', secondary_color: '#123456' };
    const form = sentForm(saved, {
      store_name: 'Loja Nova',
      primary_color: '#FF0000',
      secondary_color: '#12', // half typed
      card_border_radius: '12px',
    });
    const preview = previewSettings(form, saved);
    expect(preview).toMatchObject({
      store_name: 'Loja Nova',
      primary_color: '#ff0000',
      secondary_color: '#123456',
      card_border_radius: '12px',
    });
  });
});

describe('input lengths', () => {
  it('follow the settings schema', () => {
    expect(fieldMaxLength('pix_merchant_name')).toBe(25);
    expect(fieldMaxLength('pix_merchant_city')).toBe(15);
    expect(fieldMaxLength('store_name')).toBe(80);
    expect(fieldMaxLength('logo_url')).toBe(2000);
    expect(fieldMaxLength('about_page_text')).toBe(20_000);
    expect(fieldMaxLength('primary_color')).toBeUndefined();
    expect(fieldMaxLength('products_per_page')).toBeUndefined();
  });
});
