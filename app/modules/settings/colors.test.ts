import { describe, expect, it } from 'vitest';

import {
  contrastRatio,
  contrastWarnings,
  DERIVED_COLOR_KEYS,
  derivedColors,
  formatRatio,
  MIN_CONTRAST,
  themeColors,
} from './colors';
import { defaultSettings, resolveSettings, type StoreSettings } from './settings';
import { themeVariables } from './theme';

function settingsWith(values: Record<string, unknown>): StoreSettings {
  return resolveSettings(values);
}

// Brand colours a store might pick: light, dark, saturated, greys, and the hard middle ones.
const PRIMARIES = [
  '#3b82f6',
  '#ff0000',
  '#ffff00',
  '#00ff00',
  '#00ffff',
  '#ff00ff',
  '#f59e0b',
  '#a21caf',
  '#10b981',
  '#777777',
  '#808080',
  '#ffffff',
  '#000000',
  '#fde68a',
  '#1e3a8a',
  '#e11d48',
  '#0ea5e9',
  '#84cc16',
  '#abc',
];

describe('contrastRatio', () => {
  it('gives the WCAG figures', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The SPEC's blue behind white labels: below AA.
    expect(contrastRatio('#3b82f6', '#ffffff')).toBeCloseTo(3.68, 2);
    expect(contrastRatio('#2563eb', '#ffffff')).toBeCloseTo(5.17, 2);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
  });

  it('is written the Brazilian way, never rounded up past the minimum', () => {
    expect(formatRatio(3.68)).toBe('3,6:1');
    expect(formatRatio(4.49)).toBe('4,4:1');
    expect(formatRatio(21)).toBe('21,0:1');
  });
});

describe('derivedColors', () => {
  it('follows the primary colour while the fields are empty', () => {
    const red = derivedColors(settingsWith({ primary_color: '#dc2626' }));
    const blue = derivedColors(settingsWith({ primary_color: '#1d4ed8' }));
    for (const key of DERIVED_COLOR_KEYS.filter((key) => !key.endsWith('_text_color'))) {
      expect(red[key], key).not.toBe(blue[key]);
    }
    // A primary that already reads is used as it is.
    expect(blue.link_color).toBe('#1d4ed8');
    expect(blue.button_primary_color).toBe('#1d4ed8');
    expect(blue.button_primary_text_color).toBe('#ffffff');
  });

  it('lets a chosen colour win over the derived one, and derives the rest around it', () => {
    const settings = settingsWith({
      primary_color: '#dc2626',
      link_color: '#123456',
      button_primary_color: '#fde68a',
    });
    const colors = derivedColors(settings);
    expect(colors.link_color).toBe('#123456');
    expect(colors.button_primary_color).toBe('#fde68a');
    // The label for a chosen pale yellow is dark, so it reads.
    expect(contrastRatio(colors.button_primary_text_color, '#fde68a')).toBeGreaterThanOrEqual(
      MIN_CONTRAST,
    );
    // The breadcrumbs follow the chosen link colour.
    expect(colors.breadcrumb_color).toBe('#123456');
  });

  it('makes every derived colour readable where it is drawn, whatever the primary', () => {
    for (const primary of PRIMARIES) {
      for (const background of ['#ffffff', '#f8fafc', '#fef3c7', '#111827']) {
        const settings = settingsWith({
          primary_color: primary,
          background_color: background,
          card_background_color: background,
        });
        const failing = contrastWarnings(settings).filter(
          ({ text, on }) =>
            (DERIVED_COLOR_KEYS as readonly string[]).includes(text) ||
            (DERIVED_COLOR_KEYS as readonly string[]).includes(on),
        );
        // The dark page's own default text colours are not derived: only derived pairs count.
        expect(failing, `${primary} on ${background}`).toEqual([]);
      }
    }
  });

  it('gives the default store no warning at all', () => {
    expect(contrastWarnings(defaultSettings())).toEqual([]);
  });

  it('fills the theme with the derived colours and stores none of them', () => {
    const settings = settingsWith({ primary_color: '#a21caf' });
    expect(settings.link_color).toBe('');
    const variables = themeVariables(settings);
    expect(variables['--store-link-color']).toBe(themeColors(settings).link_color);
    expect(variables['--store-link-color']).toMatch(/^#[0-9a-f]{6}$/);
    expect(variables['--store-button-success-color']).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('contrastWarnings', () => {
  it('names each chosen pair that reads below 4.5:1', () => {
    const settingsWithPaleLink = settingsWith({
      text_color: '#999999',
      link_color: '#93c5fd',
      footer_text_color: '#333333',
    });
    const warnings = contrastWarnings(settingsWithPaleLink);
    expect(warnings.map(({ text, on }) => `${text}/${on}`)).toEqual([
      'text_color/background_color',
      'link_color/background_color',
      'link_color/card_background_color',
      'footer_text_color/footer_background_color',
    ]);
    // The breadcrumbs follow the pale link colour, but in a shade that reads.
    expect(
      contrastRatio(themeColors(settingsWithPaleLink).breadcrumb_color, '#ffffff'),
    ).toBeGreaterThanOrEqual(MIN_CONTRAST);
    for (const warning of warnings) expect(warning.ratio).toBeLessThan(MIN_CONTRAST);
  });

  it('checks button labels on the button and on its hover', () => {
    const warnings = contrastWarnings(
      settingsWith({ button_danger_color: '#ff8080', button_danger_text_color: '#ffffff' }),
    );
    expect(warnings.map(({ on }) => on)).toContain('button_danger_color');
  });
});
