import type { SettingKey, StoreSettings } from './settings';

// The store's colours as they reach the page (ADR 026): the colour fields that carry the brand
// follow 'Cor primária' unless staff chose a colour for them, and every derived colour is made
// readable (WCAG AA, 4.5:1) on the background it is drawn on.

/** WCAG AA for body text: the least contrast a text colour needs on its background. */
export const MIN_CONTRAST = 4.5;

const WHITE = '#ffffff';
const INK = '#111827';
const BLACK = '#000000';

interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** #rgb, #rgba, #rrggbb or #rrggbbaa (the shapes the settings take); the alpha is left out. */
function parseHex(hex: string): Rgb {
  let digits = hex.replace('#', '');
  if (digits.length <= 4) digits = [...digits].map((digit) => digit + digit).join('');
  return {
    r: Number.parseInt(digits.slice(0, 2), 16),
    g: Number.parseInt(digits.slice(2, 4), 16),
    b: Number.parseInt(digits.slice(4, 6), 16),
  };
}

function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function relativeLuminance(hex: string): number {
  const { r, g, b } = parseHex(hex);
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white). */
export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

interface Hsl {
  h: number;
  s: number;
  l: number;
}

function toHsl(hex: string): Hsl {
  const { r, g, b } = parseHex(hex);
  const [red, green, blue] = [r / 255, g / 255, b / 255];
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h =
    max === red
      ? (green - blue) / d + (green < blue ? 6 : 0)
      : max === green
        ? (blue - red) / d + 2
        : (red - green) / d + 4;
  return { h: h / 6, s, l };
}

function fromHsl({ h, s, l }: Hsl): string {
  if (s === 0) return toHex({ r: l * 255, g: l * 255, b: l * 255 });
  const hue = (p: number, q: number, t: number) => {
    const x = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  return toHex({
    r: hue(p, q, h + 1 / 3) * 255,
    g: hue(p, q, h) * 255,
    b: hue(p, q, h - 1 / 3) * 255,
  });
}

/** The colour with its lightness moved by `step` (−1 to 1), keeping its hue and saturation. */
function shiftLightness(hex: string, step: number): string {
  const hsl = toHsl(hex);
  return fromHsl({ ...hsl, l: Math.min(1, Math.max(0, hsl.l + step)) });
}

function worstContrast(color: string, backgrounds: readonly string[]): number {
  return Math.min(...backgrounds.map((background) => contrastRatio(color, background)));
}

/**
 * The colour itself when it reads on every background, else the nearest shade of it (darker or
 * lighter, the same hue) that does; where no shade reads on all of them, the one that reads best.
 */
export function readableOn(color: string, backgrounds: readonly string[]): string {
  const start = toHex(parseHex(color));
  if (worstContrast(start, backgrounds) >= MIN_CONTRAST) return start;
  let best = start;
  for (let step = 0.01; step <= 1; step += 0.01) {
    for (const shade of [shiftLightness(start, -step), shiftLightness(start, step)]) {
      if (worstContrast(shade, backgrounds) >= MIN_CONTRAST) return shade;
      if (worstContrast(shade, backgrounds) > worstContrast(best, backgrounds)) best = shade;
    }
  }
  return best;
}

/** The text colour for a background: white where it reads, else the page's ink, else black. */
function textOn(background: string): string {
  for (const text of [WHITE, INK, BLACK]) {
    if (contrastRatio(text, background) >= MIN_CONTRAST) return text;
  }
  return contrastRatio(WHITE, background) >= contrastRatio(BLACK, background) ? WHITE : BLACK;
}

/**
 * A button's background from the brand colour: white labels while the colour is dark enough to
 * carry them after a small darkening (3:1 before it), else dark labels, the colour lightened.
 */
function buttonFrom(brand: string, text: string | null): { background: string; text: string } {
  const label = text ?? (contrastRatio(WHITE, brand) >= 3 ? WHITE : INK);
  return { background: readableOn(brand, [label]), text: label };
}

/** The same colour a step further from its label (the hover, or a deeper button). */
function deeper(background: string, text: string, step: number): string {
  const darker = shiftLightness(background, -step);
  const lighter = shiftLightness(background, step);
  return contrastRatio(darker, text) >= contrastRatio(lighter, text) ? darker : lighter;
}

/** The colour fields that follow 'Cor primária' while they are empty. */
export const DERIVED_COLOR_KEYS = [
  'link_color',
  'breadcrumb_color',
  'product_price_color',
  'button_primary_color',
  'button_primary_text_color',
  'button_primary_hover_color',
  'button_success_color',
  'button_success_text_color',
  'button_success_hover_color',
] as const satisfies readonly SettingKey[];

export type DerivedColorKey = (typeof DERIVED_COLOR_KEYS)[number];

export function isDerivedColor(key: string): key is DerivedColorKey {
  return (DERIVED_COLOR_KEYS as readonly string[]).includes(key);
}

/**
 * Every derived colour as the page uses it: the one staff chose, or, left empty, one made from
 * the primary colour and readable where it is drawn. Each is worked out from the others as they
 * end up (a chosen button background gets a label that reads on it).
 */
export function derivedColors(settings: StoreSettings): Record<DerivedColorKey, string> {
  const chosen = (key: DerivedColorKey) => settings[key] || null;
  const surfaces = [settings.background_color, settings.card_background_color];
  const link = chosen('link_color') ?? readableOn(settings.primary_color, surfaces);
  const breadcrumb = chosen('breadcrumb_color') ?? readableOn(link, [settings.background_color]);
  const price =
    chosen('product_price_color') ??
    readableOn(settings.primary_color, [settings.card_background_color]);

  const primaryText = chosen('button_primary_text_color');
  const primaryChosen = chosen('button_primary_color');
  const primary = primaryChosen
    ? { background: primaryChosen, text: primaryText ?? textOn(primaryChosen) }
    : buttonFrom(settings.primary_color, primaryText);

  // 'Comprar agora': the brand's colour, a shade deeper than 'Adicionar ao carrinho'.
  const successText = chosen('button_success_text_color');
  const successChosen = chosen('button_success_color');
  const success = successChosen
    ? { background: successChosen, text: successText ?? textOn(successChosen) }
    : buttonFrom(deeper(primary.background, primary.text, 0.08), successText ?? primary.text);

  return {
    link_color: link,
    breadcrumb_color: breadcrumb,
    product_price_color: price,
    button_primary_color: primary.background,
    button_primary_text_color: primary.text,
    button_primary_hover_color:
      chosen('button_primary_hover_color') ?? deeper(primary.background, primary.text, 0.07),
    button_success_color: success.background,
    button_success_text_color: success.text,
    button_success_hover_color:
      chosen('button_success_hover_color') ?? deeper(success.background, success.text, 0.07),
  };
}

/** The settings with every colour the page uses filled in. */
export function themeColors(settings: StoreSettings): StoreSettings {
  return { ...settings, ...derivedColors(settings) };
}

/** A text colour and the background it is read on, by their settings. */
const TEXT_PAIRS: readonly { text: SettingKey; on: SettingKey }[] = [
  { text: 'text_color', on: 'background_color' },
  { text: 'link_color', on: 'background_color' },
  { text: 'link_color', on: 'card_background_color' },
  { text: 'breadcrumb_color', on: 'background_color' },
  { text: 'nav_color', on: 'header_background_color' },
  { text: 'header_text_color', on: 'header_background_color' },
  { text: 'footer_text_color', on: 'footer_background_color' },
  { text: 'product_title_color', on: 'card_background_color' },
  { text: 'product_description_color', on: 'card_background_color' },
  { text: 'product_price_color', on: 'card_background_color' },
  { text: 'button_primary_text_color', on: 'button_primary_color' },
  { text: 'button_primary_text_color', on: 'button_primary_hover_color' },
  { text: 'button_secondary_text_color', on: 'button_secondary_color' },
  { text: 'button_secondary_text_color', on: 'button_secondary_hover_color' },
  { text: 'button_success_text_color', on: 'button_success_color' },
  { text: 'button_success_text_color', on: 'button_success_hover_color' },
  { text: 'button_danger_text_color', on: 'button_danger_color' },
  { text: 'button_danger_text_color', on: 'button_danger_hover_color' },
];

export interface ContrastWarning {
  text: SettingKey;
  on: SettingKey;
  ratio: number;
}

/** The text and background pairs that read below WCAG AA (4.5:1), with the page's colours. */
export function contrastWarnings(settings: StoreSettings): ContrastWarning[] {
  const colors = themeColors(settings);
  return TEXT_PAIRS.flatMap(({ text, on }) => {
    const ratio = contrastRatio(String(colors[text]), String(colors[on]));
    return ratio < MIN_CONTRAST ? [{ text, on, ratio }] : [];
  });
}

/** A ratio the way the warning writes it: 3,2:1. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toLocaleString('pt-BR', { minimumFractionDigits: 1 })}:1`;
}
