import type { StoreSettings } from '~/modules/settings';
import { storeAfter } from '~/lib/store-name';

export const CONTENT_PAGE_SLUGS = [
  'sobre',
  'politicadevolucao',
  'politicaprivacidade',
  'faq',
  'contato',
] as const;

export type ContentPageSlug = (typeof CONTENT_PAGE_SLUGS)[number];

export interface ContentPage {
  title: string;
  /** The setting holding the store's own Markdown for the page; empty means the default text. */
  textSetting:
    | 'about_page_text'
    | 'return_policy_text'
    | 'privacy_policy_text'
    | 'faq_page_text'
    | 'contact_page_text';
  description: (storeName: string) => string;
}

export const CONTENT_PAGES: Record<ContentPageSlug, ContentPage> = {
  sobre: {
    title: 'Sobre nós',
    textSetting: 'about_page_text',
    description: (store) => `Conheça a ${store}: quem somos e como trabalhamos.`,
  },
  politicadevolucao: {
    title: 'Política de troca e devolução',
    textSetting: 'return_policy_text',
    description: (store) =>
      `Prazos e condições para trocar ou devolver produtos ${storeAfter('da', store)}.`,
  },
  politicaprivacidade: {
    title: 'Política de privacidade',
    textSetting: 'privacy_policy_text',
    description: (store) => `Como a ${store} trata os seus dados pessoais, conforme a LGPD.`,
  },
  faq: {
    title: 'Perguntas frequentes',
    textSetting: 'faq_page_text',
    description: (store) =>
      `Respostas sobre produtos, pagamento, entrega e devoluções ${storeAfter('na', store)}.`,
  },
  contato: {
    title: 'Contato',
    textSetting: 'contact_page_text',
    description: (store) => `Fale com a ${store}: nossos canais de atendimento.`,
  },
};

function isContentPageSlug(value: string): value is ContentPageSlug {
  return (CONTENT_PAGE_SLUGS as readonly string[]).includes(value);
}

/** The content page a URL path shows ("/sobre", "/FAQ/"), or null for any other path. */
export function contentPageSlug(pathname: string): ContentPageSlug | null {
  // React Router matches paths case-insensitively and with a trailing slash.
  const slug = pathname.replace(/^\/+|\/+$/g, '').toLowerCase();
  return isContentPageSlug(slug) ? slug : null;
}

/** The store's own text for the page, when it has written one. */
export function customPageText(slug: ContentPageSlug, settings: StoreSettings): string {
  return settings[CONTENT_PAGES[slug].textSetting].trim();
}

/** The settings screen's preview of a content page with the unsaved text. */
export type PagePreviewReply =
  { ok: true; slug: string; html: string; usesDefault: boolean } | { ok: false; error: string };
