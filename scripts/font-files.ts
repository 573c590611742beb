// npx tsx scripts/font-files.ts — writes app/styles/font-files.ts: for each font a store can
// choose, its Latin regular and bold files (from its @fontsource package) and the overrides that
// make a local font take the same room while the file loads (docs/decisions/014).
// Run it again after adding a font or updating an @fontsource package.
import { writeFile } from 'node:fs/promises';

import { createFontStack } from '@capsizecss/core';
import arialBold from '@capsizecss/metrics/arial/700';
import arial from '@capsizecss/metrics/arial/regular';
import timesNewRomanBold from '@capsizecss/metrics/timesNewRoman/700';
import timesNewRoman from '@capsizecss/metrics/timesNewRoman/regular';
import { fromFile } from '@capsizecss/unpack/fs';
import { format, resolveConfig } from 'prettier';

import { FONT_NAMES, FONTS } from '../app/modules/settings';

const ROOT = new URL('..', import.meta.url).pathname;
const OUTPUT = `${ROOT}app/styles/font-files.ts`;
const WEIGHTS = [400, 700] as const;

// The local fonts to stand in: Arial and Times New Roman, and on Linux their metric-compatible
// Liberation twins (same widths and heights), where the originals are seldom installed.
const LOCAL_FONTS = {
  'sans-serif': {
    400: { metrics: arial, twin: ['Liberation Sans', 'LiberationSans'] },
    700: { metrics: arialBold, twin: ['Liberation Sans Bold', 'LiberationSans-Bold'] },
  },
  serif: {
    400: { metrics: timesNewRoman, twin: ['Liberation Serif', 'LiberationSerif'] },
    700: { metrics: timesNewRomanBold, twin: ['Liberation Serif Bold', 'LiberationSerif-Bold'] },
  },
} as const;

const slug = (font: string) => font.toLowerCase().replaceAll(' ', '-');
const identifier = (font: string, weight: number) =>
  `${slug(font).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}${weight}`;

async function face(font: (typeof FONT_NAMES)[number], weight: (typeof WEIGHTS)[number]) {
  const file = `@fontsource/${slug(font)}/files/${slug(font)}-latin-${weight}-normal.woff2`;
  const metrics = await fromFile(`${ROOT}node_modules/${file}`);
  const local = LOCAL_FONTS[FONTS[font]][weight];
  const [fallback] = createFontStack([metrics, local.metrics], {
    fontFaceFormat: 'styleObject',
  }).fontFaces;
  const { ascentOverride, descentOverride, lineGapOverride, sizeAdjust } = fallback!['@font-face'];
  const names = [local.metrics.fullName, local.metrics.postscriptName, ...local.twin];
  return {
    imports: `import ${identifier(font, weight)} from '${file}?url';`,
    entry: `${weight}: { url: ${identifier(font, weight)}, fallback: ${JSON.stringify({
      src: names.map((name) => `local('${name}')`).join(', '),
      sizeAdjust,
      ascentOverride,
      descentOverride,
      lineGapOverride,
    })} },`,
  };
}

const imports: string[] = [];
const entries: string[] = [];
for (const font of FONT_NAMES) {
  const faces = await Promise.all(WEIGHTS.map((weight) => face(font, weight)));
  imports.push(...faces.map((each) => each.imports));
  entries.push(`'${font}': { ${faces.map((each) => each.entry).join(' ')} },`);
}

const source = `// Written by scripts/font-files.ts from the fonts' own files: run it again rather than edit.
import type { FontName } from '~/modules/settings';

${imports.join('\n')}

export const FONT_WEIGHTS = [${WEIGHTS.join(', ')}] as const;
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
${entries.join('\n')}
};
`;
await writeFile(
  OUTPUT,
  await format(source, { ...(await resolveConfig(OUTPUT)), filepath: OUTPUT }),
);
console.log(`Wrote ${OUTPUT}`);
