/** The 15 font families a store can choose, with the fallback used while the web font loads. */
export const FONTS = {
  Roboto: 'sans-serif',
  Inter: 'sans-serif',
  Poppins: 'sans-serif',
  'Open Sans': 'sans-serif',
  Lato: 'sans-serif',
  Montserrat: 'sans-serif',
  Oswald: 'sans-serif',
  Nunito: 'sans-serif',
  Merriweather: 'serif',
  Raleway: 'sans-serif',
  Quicksand: 'sans-serif',
  Ubuntu: 'sans-serif',
  'Playfair Display': 'serif',
  Rubik: 'sans-serif',
  'Source Sans Pro': 'sans-serif',
} as const;

export type FontName = keyof typeof FONTS;
export const FONT_NAMES = Object.keys(FONTS) as [FontName, ...FontName[]];

/** The family of the local font sized like `font`, drawn while its file loads (app/styles). */
export function fallbackFamily(font: FontName): string {
  return `${font} Fallback`;
}

/** The CSS font-family value for a chosen font. */
export function fontStack(font: FontName): string {
  return `'${font}', '${fallbackFamily(font)}', system-ui, ${FONTS[font]}`;
}
