import { fallbackFamily, type StoreSettings } from '~/modules/settings';

import { FONT_FILES, FONT_WEIGHTS, type FallbackFace } from './font-files';

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
 * for; the admin's settings preview writes them too): each weight's file, drawn as soon as it arrives, and the local font sized to take the
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
