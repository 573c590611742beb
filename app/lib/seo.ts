import type { MetaDescriptor } from 'react-router';

/** What a page says about itself; everything else comes from the store's SEO settings. */
export interface PageSeo {
  /** The page's own title; the store name is appended. Omitted on the home page. */
  title?: string;
  description?: string;
  /** Path of the canonical URL, such as "/product/…"; query strings are left out on purpose. */
  path: string;
  image?: string;
  type?: 'website' | 'product';
  /** Pages that must stay out of search results (cart, errors, maintenance). */
  noindex?: boolean;
}

/**
 * The store's SEO settings, as the settings module's StoreSettings carries them: written out
 * here because lib sits below the domains and imports none of them (ADR 021).
 */
export interface SeoSettings {
  store_name: string;
  store_description: string;
  logo_url: string;
  meta_title: string;
  meta_description: string;
  meta_keywords: string;
  meta_author: string;
  meta_robots: string;
  og_title: string;
  og_description: string;
  og_image_url: string;
  og_type: string;
  twitter_card: string;
  twitter_site: string;
  twitter_title: string;
  twitter_description: string;
  twitter_image_url: string;
}

/** The parts of the root and store layout loaders that every page's meta needs. */
export interface SeoContext {
  settings: SeoSettings;
  /** Absolute origin for canonical and Open Graph URLs, such as "https://loja.com.br". */
  origin: string;
  /**
   * No page of the store belongs in a search index: a demo (ADR 018), or a store that cannot take
   * a payment yet.
   */
  unlisted?: boolean;
}

/** A site path ("/sample/a.svg") made absolute; absolute URLs pass through. */
export function absoluteUrl(origin: string, url: string): string {
  return url.startsWith('/') ? `${origin}${url}` : url;
}

/**
 * The share picture's size and type: the 1.91:1 that Facebook and WhatsApp show large, in a
 * format every preview shows (WhatsApp skips SVG, and the uploads are WebP).
 */
export const OG_IMAGE = { width: 1200, height: 630, type: 'image/jpeg' } as const;

const OG_IMAGE_PREFIX = '/og';
const OG_IMAGE_SUFFIX = '.jpg';

/**
 * The share picture made from one of the site's images ("/sample/a.svg" → "/og/sample/a.svg.jpg");
 * a query string or fragment is dropped, as the file is the same.
 */
export function ogImagePath(sitePath: string): string {
  return `${OG_IMAGE_PREFIX}${sitePath.replace(/[?#].*$/, '')}${OG_IMAGE_SUFFIX}`;
}

/** The site image a share picture's path (after "/og/") is made from, or null for any other. */
export function ogImageSource(splat: string): string | null {
  return splat.endsWith(OG_IMAGE_SUFFIX) ? `/${splat.slice(0, -OG_IMAGE_SUFFIX.length)}` : null;
}

/** A page's share picture: the site's own images as JPEG share pictures, others as they are. */
function shareImage(origin: string, image: string): MetaDescriptor[] {
  if (!image.startsWith('/')) return [{ property: 'og:image', content: image }];
  return [
    { property: 'og:image', content: `${origin}${ogImagePath(image)}` },
    { property: 'og:image:type', content: OG_IMAGE.type },
    { property: 'og:image:width', content: String(OG_IMAGE.width) },
    { property: 'og:image:height', content: String(OG_IMAGE.height) },
  ];
}

/** Title, description, canonical URL, Open Graph and Twitter tags of one page. */
export function seoMeta(
  { settings, origin, unlisted }: SeoContext,
  page: PageSeo,
): MetaDescriptor[] {
  const storeTitle = settings.meta_title || settings.store_name;
  const title = page.title ? `${page.title} | ${settings.store_name}` : storeTitle;
  const description = (
    page.description ||
    settings.meta_description ||
    settings.store_description
  ).slice(0, 300);
  const url = `${origin}${page.path}`;
  const image = page.image || settings.og_image_url || settings.logo_url;
  const robots = page.noindex || unlisted ? 'noindex, nofollow' : settings.meta_robots;

  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: description },
    { name: 'robots', content: robots },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: settings.store_name },
    { property: 'og:locale', content: 'pt_BR' },
    { property: 'og:type', content: page.type === 'product' ? 'product' : settings.og_type },
    { property: 'og:url', content: url },
    { property: 'og:title', content: page.title ? title : settings.og_title || title },
    {
      property: 'og:description',
      content: page.description ? description : settings.og_description || description,
    },
    { name: 'twitter:card', content: settings.twitter_card },
    { name: 'twitter:title', content: page.title ? title : settings.twitter_title || title },
    {
      name: 'twitter:description',
      content: page.description ? description : settings.twitter_description || description,
    },
  ];
  if (settings.meta_keywords) tags.push({ name: 'keywords', content: settings.meta_keywords });
  if (settings.meta_author) tags.push({ name: 'author', content: settings.meta_author });
  if (settings.twitter_site) {
    const handle = settings.twitter_site.replace(/^@?/, '@');
    tags.push({ name: 'twitter:site', content: handle });
  }
  if (image) {
    tags.push(...shareImage(origin, image));
    const twitterImage = page.image ? image : settings.twitter_image_url || image;
    const twitterUrl = twitterImage.startsWith('/') ? ogImagePath(twitterImage) : twitterImage;
    tags.push({ name: 'twitter:image', content: absoluteUrl(origin, twitterUrl) });
  }
  return tags;
}

/**
 * What the JSON-LD reads of the store's settings, written out so that lib needs no domain's
 * types (the settings module's StoreSettings has them all).
 */
export interface JsonLdSettings {
  store_name: string;
  store_description: string;
  logo_url: string;
  schema_type: string;
  schema_description: string;
  contact_email: string;
  contact_phone: string;
  contact_address: string;
  facebook_url: string;
  instagram_url: string;
  twitter_url: string;
  youtube_url: string;
  linkedin_url: string;
  tiktok_url: string;
}

/** schema.org Organization (or the type the settings name) for the home page. */
export function organizationJsonLd(settings: JsonLdSettings, origin: string) {
  const sameAs = [
    settings.facebook_url,
    settings.instagram_url,
    settings.twitter_url,
    settings.youtube_url,
    settings.linkedin_url,
    settings.tiktok_url,
  ].filter(Boolean);
  return {
    '@context': 'https://schema.org',
    '@type': settings.schema_type,
    name: settings.store_name,
    url: `${origin}/`,
    description: settings.schema_description || settings.store_description,
    ...(settings.logo_url ? { logo: absoluteUrl(origin, settings.logo_url) } : {}),
    ...(settings.contact_email ? { email: settings.contact_email } : {}),
    ...(settings.contact_phone ? { telephone: settings.contact_phone } : {}),
    ...(settings.contact_address ? { address: settings.contact_address } : {}),
    ...(sameAs.length > 0 ? { sameAs } : {}),
  };
}
