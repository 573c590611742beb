import { fallbackFamily, type StoreSettings } from '~/modules/settings';

import { FONT_FILES, FONT_WEIGHTS, type FallbackFace, type FontWeight } from './font-files';

/** Only regular and bold are shipped; CSS draws 600 and heavier with bold, the rest regular. */
function shippedWeight(weight: string): FontWeight {
  return Number(weight) >= 600 ? 700 : 400;
}

function overrides({ sizeAdjust, ascentOverride, descentOverride, lineGapOverride }: FallbackFace) {
  return Object.entries({
    'size-adjust': sizeAdjust,
    'ascent-override': ascentOverride,
    'descent-override': descentOverride,
    'line-gap-override': lineGapOverride,
  })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `;${name}:${value}`)
    .join('');
}

/**
 * The @font-face rules of the store's fonts, for the page's inline style (no stylesheet to wait
 * for): each weight's file, drawn as soon as it arrives, and the local font sized to take the
 * same room until then, so the swap moves nothing. A rule costs nothing until text uses it.
 */
export function fontFaceCss(settings: StoreSettings): string {
  const fonts = [...new Set([settings.font_family, settings.heading_font])];
  return fonts
    .flatMap((font) =>
      FONT_WEIGHTS.map((weight) => {
        const { url, fallback } = FONT_FILES[font][weight];
        return (
          `@font-face{font-family:'${font}';font-weight:${weight};font-display:swap;` +
          `src:url(${url}) format('woff2')}` +
          `@font-face{font-family:'${fallbackFamily(font)}';font-weight:${weight};` +
          `src:${fallback.src}${overrides(fallback)}}`
        );
      }),
    )
    .join('');
}

/**
 * The files the first screen is drawn with, to fetch alongside the stylesheet rather than after
 * it: the body's regular and bold (buttons, prices) and the headings' weight.
 */
export function fontPreloads(settings: StoreSettings): string[] {
  const body = FONT_FILES[settings.font_family];
  const heading = FONT_FILES[settings.heading_font][shippedWeight(settings.heading_font_weight)];
  return [...new Set([body[400].url, body[700].url, heading.url])];
}
