import { describe, expect, it } from 'vitest';

import { defaultSettings, type StoreSettings } from '~/modules/settings';

import { FONT_FILES } from './font-files';
import { fontFaceCss, fontPreloads } from './store-fonts.server';

const settings = (patch: Partial<StoreSettings>) => ({ ...defaultSettings(), ...patch });

describe('the store fonts', () => {
  it('preloads the body regular and bold and the headings at their weight', () => {
    expect(
      fontPreloads(
        settings({ font_family: 'Lato', heading_font: 'Oswald', heading_font_weight: '500' }),
      ),
    ).toEqual([FONT_FILES.Lato[400].url, FONT_FILES.Lato[700].url, FONT_FILES.Oswald[400].url]);
    // 600 and up are drawn with the bold file; one font for both is preloaded once.
    expect(
      fontPreloads(
        settings({ font_family: 'Lato', heading_font: 'Lato', heading_font_weight: '600' }),
      ),
    ).toEqual([FONT_FILES.Lato[400].url, FONT_FILES.Lato[700].url]);
  });

  it('declares each weight with its local stand-in, sized from the font files', () => {
    const css = fontFaceCss(
      settings({ font_family: 'Merriweather', heading_font: 'Merriweather' }),
    );
    expect(css.match(/@font-face/g)).toHaveLength(4);
    expect(css).toContain(
      `@font-face{font-family:'Merriweather';font-weight:700;font-display:swap;src:url(${FONT_FILES.Merriweather[700].url}) format('woff2')}`,
    );
    // A serif stands in for a serif, its bold for the bold.
    expect(css).toMatch(
      /@font-face\{font-family:'Merriweather Fallback';font-weight:700;src:local\('Times New Roman Bold'\).*?;size-adjust:[\d.]+%;ascent-override:[\d.]+%;descent-override:[\d.]+%;line-gap-override:[\d.]+%\}/,
    );
  });
});
