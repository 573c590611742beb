import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The house style of what shoppers and staff read (issue 21): sentence case, real plurals. Every
// string and JSX text in app/ is read with the TypeScript parser, so a new screen is held to it
// without anyone listing its texts.
const ROOT = resolve(import.meta.dirname, '../..');

/** Data, not our wording: the sample store's product names and the states' names. */
const DATA_FILES = new Set([
  'app/flows/sample-store.ts',
  'app/modules/checkout/states.ts',
  'app/modules/settings/fonts.ts',
  'app/modules/settings/time-zones.ts',
  'app/styles/font-files.ts',
]);

/** Names standing alone: an example company, a sample product, the sandbox's PIX merchant. */
const NAMES = new Set([
  'Minha Loja Comércio Ltda.',
  'Fone Bluetooth',
  'Vitrine Sandbox',
  'Sao Paulo',
]);

/** Names that are capitalised in any sentence: brands, places, products we name. */
const PROPER_NAMES = [
  'Google Tag Manager',
  'Google Analytics',
  'Google Search Console',
  'Google Ads',
  'Google Shopping',
  'Google Merchant Center',
  'Meta Commerce Manager',
  'Microsoft Clarity',
  'Autoridade Nacional de Proteção de Dados',
  'Lei Geral de Proteção de Dados',
  'Meta Pixel',
  'Mercado Pago',
  // Mercado Pago's own name for the credential staff copy from its panel.
  'Access Token',
  'Melhor Envio',
  // The Central Bank's API and the names banks give its credentials (issue 40).
  'API Pix',
  'Client ID',
  // The ERP and its application's credentials, as Bling's own screens name them.
  'Bling',
  'Client Id',
  'Client Secret',
  'Open Graph',
  'Brasil',
  'Correios',
  'WhatsApp',
  'Instagram',
  'Facebook',
  'TikTok',
  'YouTube',
  'Pinterest',
  'Snapchat',
  'Hotjar',
  'LinkedIn',
  'Twitter',
  'JavaScript',
  'Markdown',
  'Analytics',
  'Lighthouse',
  'Vitrine',
  // The terminal's messages name the database and the systems its tools come for.
  'PostgreSQL',
  'Debian',
  'Ubuntu',
  // Last: the longer names above that start with them go first.
  'Google',
  'Meta',
];

/** Little words that start with a capital only at the start of a sentence. */
const CONNECTORS = new Set(
  'a à ao aos as às com da das de do dos e em na nas no nos o os ou para pela pelas pelo pelos por sem sob um uma'.split(
    ' ',
  ),
);

export type Text = { file: string; line: number; text: string };

/** Every string literal, template part and JSX text in a source file. */
export function textsOf(file: string, source: string): Text[] {
  const tree = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const texts: Text[] = [];
  const add = (node: ts.Node, text: string) =>
    texts.push({ file, line: tree.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node))
      return;
    if (
      ts.isJsxAttribute(node) &&
      ts.isIdentifier(node.name) &&
      /^(className|class)$/.test(node.name.text)
    )
      return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node, node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      add(node, node.text);
    else if (ts.isJsxText(node)) add(node, node.text);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return texts;
}

/** Why a text breaks the house style, or null. */
export function styleProblem(text: string): string | null {
  if (/\p{L}\((s|es|is|ns)\)/u.test(text)) return 'plural written as “(s)”';
  if (NAMES.has(text) || /^\S*$/.test(text.trim()) || /[{};=<>]|\(\)/.test(text)) return null;
  // Markdown's marks are not words: '## Prazo' is a heading, '- **Nota:**' a bold list item.
  let rest = text.replace(/^\s*- /gm, '\n').replace(/[#*[\]]/g, ' ');
  for (const name of PROPER_NAMES) rest = rest.split(name).join(name.toLowerCase());
  // Each sentence, heading or list item on its own: only its first word may start with a capital.
  for (const sentence of rest.split(/[.!?:;…—–(“"\n|•·]\s*|\s-\s/u)) {
    const words = sentence.trim().split(/\s+/).filter(Boolean).slice(1);
    const capitalised = words.filter((word) => /^\p{Lu}\p{Ll}/u.test(word) && !/\d/.test(word));
    if (capitalised.some((word) => CONNECTORS.has(word.toLowerCase()))) return 'Title Case';
    if (
      capitalised.length >= 1 &&
      capitalised.length === words.filter((w) => /^\p{L}{3,}/u.test(w)).length
    )
      return 'Title Case';
  }
  return null;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the texts shoppers and staff read', () => {
  it('are in sentence case with real plurals, in every file of app/', () => {
    const problems = sourceFiles(join(ROOT, 'app'))
      .map((path) => relative(ROOT, path))
      .filter((file) => !DATA_FILES.has(file))
      .flatMap((file) => textsOf(file, readFileSync(join(ROOT, file), 'utf8')))
      .flatMap(({ file, line, text }) => {
        const problem = styleProblem(text);
        return problem ? [`${file}:${line} ${problem}: ${JSON.stringify(text.trim())}`] : [];
      });
    expect(problems).toEqual([]);
    // Parsing every file of app/ is a few seconds of one core, more on a busy machine.
  }, 60_000);

  it.each([
    ['Preparando Pedido Para Envio', 'Title Case'],
    ['Finalizar Pedido Agora', 'Title Case'],
    ['Banner Acima do Header', 'Title Case'],
    ['1 pedido(s)', 'plural written as “(s)”'],
    ['3 novo(s), 2 atualizado(s).', 'plural written as “(s)”'],
  ])('refuses %j', (text, problem) => {
    expect(styleProblem(text)).toBe(problem);
  });

  it.each([
    'Preparando o pedido para envio',
    'Finalizar pedido',
    'Pagar com PIX no Mercado Pago',
    'Boas-vindas à loja do João',
    'Envie pelo WhatsApp. Depois, confira o Instagram da loja.',
    'CEP de origem',
    'Content-Type',
  ])('accepts %j', (text) => {
    expect(styleProblem(text)).toBeNull();
  });

  it('reads strings, templates and JSX text but not class names or imports', () => {
    const texts = textsOf(
      'x.tsx',
      `import a from 'Um Dois Três';\nconst b = \`Quatro \${a} Cinco\`;\nconst c = <p className="Seis Sete">Oito Nove</p>;`,
    ).map(({ text }) => text);
    expect(texts).toEqual(['Quatro ', ' Cinco', 'Oito Nove']);
  });
});
