import type { FontName } from '~/modules/settings';

import roboto from './fonts/roboto.css?url';
import inter from './fonts/inter.css?url';
import poppins from './fonts/poppins.css?url';
import openSans from './fonts/open-sans.css?url';
import lato from './fonts/lato.css?url';
import montserrat from './fonts/montserrat.css?url';
import oswald from './fonts/oswald.css?url';
import nunito from './fonts/nunito.css?url';
import merriweather from './fonts/merriweather.css?url';
import raleway from './fonts/raleway.css?url';
import quicksand from './fonts/quicksand.css?url';
import ubuntu from './fonts/ubuntu.css?url';
import playfairDisplay from './fonts/playfair-display.css?url';
import rubik from './fonts/rubik.css?url';
import sourceSansPro from './fonts/source-sans-pro.css?url';

// One small stylesheet per font; a page links only the two fonts the store chose.
export const FONT_STYLESHEETS: Record<FontName, string> = {
  Roboto: roboto,
  Inter: inter,
  Poppins: poppins,
  'Open Sans': openSans,
  Lato: lato,
  Montserrat: montserrat,
  Oswald: oswald,
  Nunito: nunito,
  Merriweather: merriweather,
  Raleway: raleway,
  Quicksand: quicksand,
  Ubuntu: ubuntu,
  'Playfair Display': playfairDisplay,
  Rubik: rubik,
  'Source Sans Pro': sourceSansPro,
};
