import { visibleText } from './visitor';

/**
 * Reading a server-rendered page without a browser: the server tests prove what the HTML says
 * (texts, attributes, JSON-LD) at a fraction of what Chromium costs, and a journey in Chromium
 * proves the page works. React writes well-formed HTML with every attribute value escaped, which
 * is all these few functions rely on.
 */

// Elements without a closing tag.
const VOID = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The opening tags a small selector names, as a pattern: a tag (`li`), a class (`.product-price`),
 * attributes (`[data-testid="stock"]`, `[rel]`), or a tag with either (`meta[property="og:type"]`).
 */
function openingTag(selector: string): RegExp {
  const parsed = /^([a-z][\w-]*)?(?:\.([\w-]+))?((?:\[[\w:-]+(?:="[^"]*")?\])*)$/i.exec(selector);
  if (!parsed) throw new Error(`Unsupported selector: ${selector}`);
  const [, tag, className, attributes = ''] = parsed;
  const conditions = [...attributes.matchAll(/\[([\w:-]+)(?:="([^"]*)")?\]/g)].map(
    ([, name, value]) =>
      value === undefined
        ? `(?=[^>]*\\s${escapeRegExp(name!)}[\\s=/>])`
        : `(?=[^>]*\\s${escapeRegExp(name!)}="${escapeRegExp(value)}")`,
  );
  if (className)
    conditions.push(`(?=[^>]*\\sclass="(?:[^"]*\\s)?${escapeRegExp(className)}[\\s"])`);
  return new RegExp(
    `<(${tag ? escapeRegExp(tag) : '[a-z][\\w-]*'})\\b${conditions.join('')}[^>]*>`,
    'gi',
  );
}

/** Each element the selector names, whole (its opening tag to its closing one), in page order. */
export function elements(html: string, selector: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(openingTag(selector))) {
    const [opening, tag] = match as unknown as [string, string];
    const start = match.index;
    if (VOID.has(tag.toLowerCase()) || opening.endsWith('/>')) {
      found.push(opening);
      continue;
    }
    // The closing tag that matches: same-name tags opened inside it are closed first.
    const tags = new RegExp(`<(/?)${escapeRegExp(tag)}\\b[^>]*>`, 'gi');
    tags.lastIndex = start + opening.length;
    let depth = 1;
    // matchAll starts where lastIndex says.
    for (const inner of html.matchAll(tags)) {
      if (inner[1]) depth -= 1;
      else if (!inner[0].endsWith('/>')) depth += 1;
      if (depth === 0) {
        found.push(html.slice(start, inner.index + inner[0].length));
        break;
      }
    }
  }
  return found;
}

/** The one element the selector names; fails when there is none or more than one. */
export function element(html: string, selector: string): string {
  const found = elements(html, selector);
  if (found.length !== 1) throw new Error(`${found.length} elements for ${selector}, not 1`);
  return found[0]!;
}

/** The text of each element the selector names, as visibleText reads it. */
export function textsOf(html: string, selector: string): string[] {
  return elements(html, selector).map(visibleText);
}

/** An attribute of an element's opening tag (entities decoded as visibleText does), or null. */
export function attribute(element: string, name: string): string | null {
  const opening = /^<[^>]*>/.exec(element)?.[0] ?? '';
  const value = new RegExp(`\\s${escapeRegExp(name)}="([^"]*)"`).exec(opening)?.[1];
  return value === undefined ? null : visibleText(value);
}

/** The page's `<body>` only: what a shopper may read, without the head's title and metadata. */
export function bodyOf(html: string): string {
  return element(html, 'body');
}

/** Every JSON-LD block of the page, parsed. */
export function jsonLd(html: string): Record<string, unknown>[] {
  return elements(html, 'script[type="application/ld+json"]').map((script) =>
    JSON.parse(script.replace(/^<[^>]*>/, '').replace(/<\/script>$/, '')),
  );
}
