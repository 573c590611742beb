import { HTMLElement, parse } from 'node-html-parser';

import { visibleText } from './visitor';

/**
 * Reading a server-rendered page without a browser: the server tests prove what the HTML says
 * (texts, attributes, JSON-LD) at a fraction of what Chromium costs, and a journey in Chromium
 * proves the page works. node-html-parser reads the page (CSS selectors, entities); these
 * helpers hand back elements as their HTML, read as a shopper would with visibleText.
 */
function select(html: string, selector: string): HTMLElement[] {
  return parse(html).querySelectorAll(selector);
}

/** Each element the selector names, whole (its opening tag to its closing one), in page order. */
export function elements(html: string, selector: string): string[] {
  return select(html, selector).map((found) => found.outerHTML);
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
  const opening = parse(element).childNodes.find((node) => node instanceof HTMLElement) as
    HTMLElement | undefined;
  const value = opening?.rawAttributes[name];
  return value === undefined ? null : visibleText(value);
}

/** The page's `<body>` only: what a shopper may read, without the head's title and metadata. */
export function bodyOf(html: string): string {
  return element(html, 'body');
}

/** Every JSON-LD block of the page, parsed. */
export function jsonLd(html: string): Record<string, unknown>[] {
  return select(html, 'script[type="application/ld+json"]').map(
    (script) => JSON.parse(script.rawText) as Record<string, unknown>,
  );
}
