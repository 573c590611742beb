import type { StoreSettings } from '~/modules/settings';

/** A script to put in the page: an external file, inline code, or both in that order. */
export interface TrackingScript {
  key: string;
  src?: string;
  code?: string;
}

export interface TrackingScripts {
  head: TrackingScript[];
  bodyStart: TrackingScript[];
  bodyEnd: TrackingScript[];
}

// Ids are held to each vendor's alphabet by the settings schema, so they are safe inside quotes.
// Each loader sets up the vendor's command queue first, so calls made before the file arrives
// (the page view, an AddToCart) are replayed by the vendor's script.
function vendorScripts(s: StoreSettings): TrackingScript[] {
  const scripts: TrackingScript[] = [];
  const gtagIds = [s.google_analytics_id, s.google_ads_conversion_id].filter(Boolean);
  if (gtagIds.length > 0) {
    scripts.push({
      key: 'gtag',
      code:
        'window.dataLayer=window.dataLayer||[];' +
        'window.gtag=function(){window.dataLayer.push(arguments);};' +
        "gtag('js',new Date());" +
        gtagIds.map((id) => `gtag('config','${id}');`).join(''),
    });
    scripts.push({
      key: 'gtag-src',
      src: `https://www.googletagmanager.com/gtag/js?id=${gtagIds[0]}`,
    });
  }
  if (s.google_tag_manager_id) {
    scripts.push({
      key: 'gtm',
      code:
        'window.dataLayer=window.dataLayer||[];' +
        "window.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});",
      src: `https://www.googletagmanager.com/gtm.js?id=${s.google_tag_manager_id}`,
    });
  }
  if (s.facebook_pixel_id) {
    scripts.push({
      key: 'meta-pixel',
      code:
        'if(!window.fbq){var q=function(){q.callMethod?q.callMethod.apply(q,arguments):q.queue.push(arguments);};' +
        "q.push=q;q.loaded=true;q.version='2.0';q.queue=[];window.fbq=window._fbq=q;}" +
        `fbq('init','${s.facebook_pixel_id}');fbq('track','PageView');`,
      src: 'https://connect.facebook.net/en_US/fbevents.js',
    });
  }
  if (s.hotjar_id) {
    scripts.push({
      key: 'hotjar',
      code:
        'window.hj=window.hj||function(){(window.hj.q=window.hj.q||[]).push(arguments);};' +
        `window._hjSettings={hjid:${s.hotjar_id},hjsv:6};`,
      src: `https://static.hotjar.com/c/hotjar-${s.hotjar_id}.js?sv=6`,
    });
  }
  if (s.clarity_id) {
    scripts.push({
      key: 'clarity',
      code: 'window.clarity=window.clarity||function(){(window.clarity.q=window.clarity.q||[]).push(arguments);};',
      src: `https://www.clarity.ms/tag/${s.clarity_id}`,
    });
  }
  if (s.tiktok_pixel_id) {
    scripts.push({
      key: 'tiktok',
      code:
        "window.TiktokAnalyticsObject='ttq';var t=window.ttq=window.ttq||[];" +
        "['page','track','identify'].forEach(function(m){t[m]=t[m]||function(){t.push([m].concat([].slice.call(arguments)));};});" +
        't.page();',
      src: `https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=${s.tiktok_pixel_id}&lib=ttq`,
    });
  }
  if (s.pinterest_tag_id) {
    scripts.push({
      key: 'pinterest',
      code:
        'if(!window.pintrk){window.pintrk=function(){window.pintrk.queue.push([].slice.call(arguments));};' +
        "window.pintrk.queue=[];window.pintrk.version='3.0';}" +
        `pintrk('load','${s.pinterest_tag_id}');pintrk('page');`,
      src: 'https://s.pinimg.com/ct/core.js',
    });
  }
  if (s.snapchat_pixel_id) {
    scripts.push({
      key: 'snapchat',
      code:
        'if(!window.snaptr){var a=window.snaptr=function(){a.handleRequest?a.handleRequest.apply(a,arguments):a.queue.push(arguments);};a.queue=[];}' +
        `snaptr('init','${s.snapchat_pixel_id}');snaptr('track','PAGE_VIEW');`,
      src: 'https://sc-static.net/scevent.min.js',
    });
  }
  return scripts;
}

const SCRIPT_TAG = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SRC_ATTRIBUTE = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/**
 * Turns a snippet pasted by the store's staff into scripts the page can carry with its CSP nonce:
 * each `<script>` keeps its `src` (http/https only) and code; text with no `<script>` tag at all
 * is taken as plain JavaScript. Other markup in the snippet is dropped.
 */
export function parseCustomScripts(snippet: string, prefix: string): TrackingScript[] {
  const text = snippet.trim();
  if (text === '') return [];
  if (!/<script\b/i.test(text)) return [{ key: `${prefix}-0`, code: text }];
  const scripts: TrackingScript[] = [];
  for (const [, attributes = '', body = ''] of text.matchAll(SCRIPT_TAG)) {
    const match = SRC_ATTRIBUTE.exec(attributes);
    const src = match ? (match[1] ?? match[2] ?? match[3]) : undefined;
    const script: TrackingScript = { key: `${prefix}-${scripts.length}` };
    if (src && /^https?:\/\//i.test(src)) script.src = src;
    else if (body.trim()) script.code = body.trim();
    if (script.src || script.code) scripts.push(script);
  }
  return scripts;
}

/** Everything the store's tracking settings ask to load; the caller loads it only with consent. */
export function trackingScripts(settings: StoreSettings): TrackingScripts {
  return {
    head: [
      ...vendorScripts(settings),
      ...parseCustomScripts(settings.custom_head_scripts, 'custom-head'),
    ],
    bodyStart: parseCustomScripts(settings.custom_body_scripts, 'custom-body'),
    bodyEnd: parseCustomScripts(settings.custom_footer_scripts, 'custom-footer'),
  };
}

/** Inline code is written inside a <script> element; this keeps it from closing that element. */
export function inlineScriptText(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}
