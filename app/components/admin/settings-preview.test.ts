import { describe, expect, it } from 'vitest';

import { defaultSettings } from '~/modules/settings';

import { previewedSettings } from './settings-preview';

const SWITCHES = [
  'enable_pix',
  'enable_credit_card',
  'enable_debit_card',
  'enable_boleto',
  'enable_paypal',
] as const;

const on = (settings: ReturnType<typeof defaultSettings>) =>
  SWITCHES.filter((key) => settings[key]);

describe("the settings preview's footer", () => {
  it('names only the ways to pay checkout takes through the provider, as the store does', () => {
    const settings = { ...defaultSettings(), enable_debit_card: true, enable_paypal: true };
    // The store's own PIX key: PIX only, whatever the switches say.
    expect(on(previewedSettings(settings, ['pix']))).toEqual(['enable_pix']);
    // Mercado Pago or the sandbox: what they take and the switches leave on.
    expect(
      on(
        previewedSettings({ ...settings, enable_boleto: false }, ['pix', 'credit_card', 'boleto']),
      ),
    ).toEqual(['enable_pix', 'enable_credit_card']);
    // No provider: nothing is promised.
    expect(on(previewedSettings(settings, []))).toEqual([]);
  });

  it('leaves out pictures from other sites, which the panel does not load', () => {
    const shown = previewedSettings(
      {
        ...defaultSettings(),
        logo_url: 'https://cdn.example/logo.png',
        banner_url: '/media/x.webp',
      },
      ['pix'],
    );
    expect(shown.logo_url).toBe('');
  });
});
