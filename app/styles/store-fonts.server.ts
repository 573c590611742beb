import type { StoreSettings } from '~/modules/settings';

import { FONT_FILES, type FontWeight } from './font-files';

export { fontFaceCss } from './font-faces';

/** Only regular and bold are shipped; CSS draws 600 and heavier with bold, the rest regular. */
function shippedWeight(weight: string): FontWeight {
  return Number(weight) >= 600 ? 700 : 400;
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
