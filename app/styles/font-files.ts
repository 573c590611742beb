// Written by scripts/font-files.ts from the fonts' own files: run it again rather than edit.
import type { FontName } from '~/modules/settings';

import roboto400 from '@fontsource/roboto/files/roboto-latin-400-normal.woff2?url';
import roboto700 from '@fontsource/roboto/files/roboto-latin-700-normal.woff2?url';
import inter400 from '@fontsource/inter/files/inter-latin-400-normal.woff2?url';
import inter700 from '@fontsource/inter/files/inter-latin-700-normal.woff2?url';
import poppins400 from '@fontsource/poppins/files/poppins-latin-400-normal.woff2?url';
import poppins700 from '@fontsource/poppins/files/poppins-latin-700-normal.woff2?url';
import openSans400 from '@fontsource/open-sans/files/open-sans-latin-400-normal.woff2?url';
import openSans700 from '@fontsource/open-sans/files/open-sans-latin-700-normal.woff2?url';
import lato400 from '@fontsource/lato/files/lato-latin-400-normal.woff2?url';
import lato700 from '@fontsource/lato/files/lato-latin-700-normal.woff2?url';
import montserrat400 from '@fontsource/montserrat/files/montserrat-latin-400-normal.woff2?url';
import montserrat700 from '@fontsource/montserrat/files/montserrat-latin-700-normal.woff2?url';
import oswald400 from '@fontsource/oswald/files/oswald-latin-400-normal.woff2?url';
import oswald700 from '@fontsource/oswald/files/oswald-latin-700-normal.woff2?url';
import nunito400 from '@fontsource/nunito/files/nunito-latin-400-normal.woff2?url';
import nunito700 from '@fontsource/nunito/files/nunito-latin-700-normal.woff2?url';
import merriweather400 from '@fontsource/merriweather/files/merriweather-latin-400-normal.woff2?url';
import merriweather700 from '@fontsource/merriweather/files/merriweather-latin-700-normal.woff2?url';
import raleway400 from '@fontsource/raleway/files/raleway-latin-400-normal.woff2?url';
import raleway700 from '@fontsource/raleway/files/raleway-latin-700-normal.woff2?url';
import quicksand400 from '@fontsource/quicksand/files/quicksand-latin-400-normal.woff2?url';
import quicksand700 from '@fontsource/quicksand/files/quicksand-latin-700-normal.woff2?url';
import ubuntu400 from '@fontsource/ubuntu/files/ubuntu-latin-400-normal.woff2?url';
import ubuntu700 from '@fontsource/ubuntu/files/ubuntu-latin-700-normal.woff2?url';
import playfairDisplay400 from '@fontsource/playfair-display/files/playfair-display-latin-400-normal.woff2?url';
import playfairDisplay700 from '@fontsource/playfair-display/files/playfair-display-latin-700-normal.woff2?url';
import rubik400 from '@fontsource/rubik/files/rubik-latin-400-normal.woff2?url';
import rubik700 from '@fontsource/rubik/files/rubik-latin-700-normal.woff2?url';
import sourceSansPro400 from '@fontsource/source-sans-pro/files/source-sans-pro-latin-400-normal.woff2?url';
import sourceSansPro700 from '@fontsource/source-sans-pro/files/source-sans-pro-latin-700-normal.woff2?url';

export const FONT_WEIGHTS = [400, 700] as const;
export type FontWeight = (typeof FONT_WEIGHTS)[number];

/**
 * The @font-face descriptors that make a local font take the room of the web font; each override
 * is left out where the local font's own value is already right.
 */
export interface FallbackFace {
  src: string;
  sizeAdjust?: string;
  ascentOverride?: string;
  descentOverride?: string;
  lineGapOverride?: string;
}

/**
 * Each font's Latin file (the subset that covers Portuguese) per weight, as the build serves
 * it, and its local stand-in.
 */
export const FONT_FILES: Record<
  FontName,
  Record<FontWeight, { url: string; fallback: FallbackFace }>
> = {
  Roboto: {
    400: {
      url: roboto400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '99.7809%',
        ascentOverride: '92.9771%',
        descentOverride: '24.4677%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: roboto700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '94.2014%',
        ascentOverride: '98.4841%',
        descentOverride: '25.9169%',
        lineGapOverride: '0%',
      },
    },
  },
  Inter: {
    400: {
      url: inter400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '107.1194%',
        ascentOverride: '90.4365%',
        descentOverride: '22.518%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: inter700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '102.5432%',
        ascentOverride: '94.4723%',
        descentOverride: '23.5229%',
        lineGapOverride: '0%',
      },
    },
  },
  Poppins: {
    400: {
      url: poppins400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '112.1577%',
        ascentOverride: '93.6182%',
        descentOverride: '31.2061%',
        lineGapOverride: '8.916%',
      },
    },
    700: {
      url: poppins700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '107.296%',
        ascentOverride: '97.8601%',
        descentOverride: '32.62%',
        lineGapOverride: '9.32%',
      },
    },
  },
  'Open Sans': {
    400: {
      url: openSans400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '105.1479%',
        ascentOverride: '101.6519%',
        descentOverride: '27.8625%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: openSans700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '104.7813%',
        ascentOverride: '102.0075%',
        descentOverride: '27.96%',
        lineGapOverride: '0%',
      },
    },
  },
  Lato: {
    400: {
      url: lato400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '97.6894%',
        ascentOverride: '101.0345%',
        descentOverride: '21.8038%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: lato700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '92.8163%',
        ascentOverride: '106.3391%',
        descentOverride: '22.9486%',
        lineGapOverride: '0%',
      },
    },
  },
  Montserrat: {
    400: {
      url: montserrat400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '112.8307%',
        ascentOverride: '85.7923%',
        descentOverride: '22.2457%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: montserrat700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '110.4212%',
        ascentOverride: '87.6644%',
        descentOverride: '22.7312%',
        lineGapOverride: '0%',
      },
    },
  },
  Oswald: {
    400: {
      url: oswald400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '81.4265%',
        ascentOverride: '146.5125%',
        descentOverride: '35.4921%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: oswald700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '85.6285%',
        ascentOverride: '139.3228%',
        descentOverride: '33.7505%',
        lineGapOverride: '0%',
      },
    },
  },
  Nunito: {
    400: {
      url: nunito400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '101.3906%',
        ascentOverride: '99.7134%',
        descentOverride: '34.8159%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: nunito700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '97.9207%',
        ascentOverride: '103.2469%',
        descentOverride: '36.0496%',
        lineGapOverride: '0%',
      },
    },
  },
  Merriweather: {
    400: {
      url: merriweather400,
      fallback: {
        src: "local('Times New Roman'), local('TimesNewRomanPSMT'), local('Liberation Serif'), local('LiberationSerif')",
        sizeAdjust: '119.3846%',
        ascentOverride: '82.4227%',
        descentOverride: '22.8673%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: merriweather700,
      fallback: {
        src: "local('Times New Roman Bold'), local('TimesNewRomanPS-BoldMT'), local('Liberation Serif Bold'), local('LiberationSerif-Bold')",
        sizeAdjust: '115.3445%',
        ascentOverride: '85.3097%',
        descentOverride: '23.6682%',
        lineGapOverride: '0%',
      },
    },
  },
  Raleway: {
    400: {
      url: raleway400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '103.8581%',
        ascentOverride: '90.5081%',
        descentOverride: '22.5308%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: raleway700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '100.2124%',
        ascentOverride: '93.8008%',
        descentOverride: '23.3504%',
        lineGapOverride: '0%',
      },
    },
  },
  Quicksand: {
    400: {
      url: quicksand400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '104.3067%',
        ascentOverride: '95.8711%',
        descentOverride: '23.9678%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: quicksand700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '101.8791%',
        ascentOverride: '98.1555%',
        descentOverride: '24.5389%',
        lineGapOverride: '0%',
      },
    },
  },
  Ubuntu: {
    400: {
      url: ubuntu400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '102.0635%',
        ascentOverride: '91.3157%',
        descentOverride: '18.5179%',
        lineGapOverride: '2.7434%',
      },
    },
    700: {
      url: ubuntu700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '100.0041%',
        ascentOverride: '93.1962%',
        descentOverride: '18.8992%',
        lineGapOverride: '2.7999%',
      },
    },
  },
  'Playfair Display': {
    400: {
      url: playfairDisplay400,
      fallback: {
        src: "local('Times New Roman'), local('TimesNewRomanPSMT'), local('Liberation Serif'), local('LiberationSerif')",
        sizeAdjust: '111.2615%',
        ascentOverride: '97.2483%',
        descentOverride: '22.5595%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: playfairDisplay700,
      fallback: {
        src: "local('Times New Roman Bold'), local('TimesNewRomanPS-BoldMT'), local('Liberation Serif Bold'), local('LiberationSerif-Bold')",
        sizeAdjust: '107.023%',
        ascentOverride: '101.0997%',
        descentOverride: '23.4529%',
        lineGapOverride: '0%',
      },
    },
  },
  Rubik: {
    400: {
      url: rubik400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '104.9796%',
        ascentOverride: '89.0649%',
        descentOverride: '23.8141%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: rubik700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '104.3792%',
        ascentOverride: '89.5772%',
        descentOverride: '23.9511%',
        lineGapOverride: '0%',
      },
    },
  },
  'Source Sans Pro': {
    400: {
      url: sourceSansPro400,
      fallback: {
        src: "local('Arial'), local('ArialMT'), local('Liberation Sans'), local('LiberationSans')",
        sizeAdjust: '93.7639%',
        ascentOverride: '104.9445%',
        descentOverride: '29.1157%',
        lineGapOverride: '0%',
      },
    },
    700: {
      url: sourceSansPro700,
      fallback: {
        src: "local('Arial Bold'), local('Arial-BoldMT'), local('Liberation Sans Bold'), local('LiberationSans-Bold')",
        sizeAdjust: '92.2954%',
        ascentOverride: '106.6142%',
        descentOverride: '29.5789%',
        lineGapOverride: '0%',
      },
    },
  },
};
