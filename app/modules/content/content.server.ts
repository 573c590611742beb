import type { StoreSettings } from '~/modules/settings';

import {
  aboutText,
  contactText,
  faqSections,
  privacyPolicyText,
  returnPolicyText,
} from './defaults';
import { escapeHtml, renderMarkdown } from './markdown.server';
import { CONTENT_PAGES, customPageText, type ContentPageSlug } from './pages';

export interface RenderedContentPage {
  slug: ContentPageSlug;
  title: string;
  description: string;
  /** Safe HTML: built from Markdown with raw HTML escaped. */
  html: string;
}

const DEFAULT_TEXTS: Record<
  Exclude<ContentPageSlug, 'faq'>,
  (settings: StoreSettings) => string
> = {
  sobre: aboutText,
  politicadevolucao: returnPolicyText,
  politicaprivacidade: privacyPolicyText,
  contato: contactText,
};

/** The built-in FAQ: one heading per section, each question a collapsible <details>. */
function defaultFaqHtml(settings: StoreSettings): string {
  return faqSections(settings)
    .map((section) => {
      const items = section.items
        .map(
          (item) =>
            `<details><summary>${escapeHtml(item.question)}</summary>` +
            `${renderMarkdown(item.answer)}</details>`,
        )
        .join('\n');
      return `<h2>${escapeHtml(section.title)}</h2>\n${items}`;
    })
    .join('\n');
}

/**
 * Pages as rendered for one settings object. The settings store answers with the same object
 * until the settings change, so each page's Markdown is rendered once per change, not per visit.
 */
const renderedPages = new WeakMap<StoreSettings, Map<ContentPageSlug, RenderedContentPage>>();

/** A content page as the shopper sees it: the store's own text, or the default built from settings. */
export function renderContentPage(
  slug: ContentPageSlug,
  settings: StoreSettings,
): RenderedContentPage {
  let pages = renderedPages.get(settings);
  if (!pages) {
    pages = new Map();
    renderedPages.set(settings, pages);
  }
  let rendered = pages.get(slug);
  if (!rendered) {
    rendered = render(slug, settings);
    pages.set(slug, rendered);
  }
  return rendered;
}

function render(slug: ContentPageSlug, settings: StoreSettings): RenderedContentPage {
  const page = CONTENT_PAGES[slug];
  const custom = customPageText(slug, settings);
  const html = custom
    ? renderMarkdown(custom)
    : slug === 'faq'
      ? defaultFaqHtml(settings)
      : renderMarkdown(DEFAULT_TEXTS[slug](settings));
  return {
    slug,
    title: page.title,
    description: page.description(settings.store_name),
    html,
  };
}
