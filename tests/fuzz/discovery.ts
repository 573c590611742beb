import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { decodeBody, headerValue, send } from './http';
import { SIGNED_IN_PATH } from './inputs/common';
import { FUZZ_COUPON, FUZZ_PRODUCT_SLUG } from './server-env';

/**
 * What the fuzzer aims at, found rather than listed: the routes come from the build's route
 * manifest, and plausible values (real product ids, form field names, query parameters, asset
 * files) from crawling the running store. A route added later is fuzzed without touching this.
 */

export interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasAction: boolean;
  hasLoader: boolean;
  hasDefaultExport?: boolean;
}

export interface RouteTarget {
  /** The route ids answering this URL pattern (a layout with a path and its index share one). */
  id: string;
  /** The full pattern, e.g. `/product/:id`, `/` for the index. */
  pattern: string;
  index: boolean;
  hasAction: boolean;
  hasLoader: boolean;
  /** Without a component React Router answers the loader's result itself. */
  resource: boolean;
  /** Real values seen for each dynamic segment (`id`, `*`). */
  params: Map<string, Set<string>>;
  /** Field names and the values seen for them, from the forms that post to this route. */
  postFields: Map<string, Set<string>>;
  /** Query parameter names and the values seen for them (GET forms, links). */
  queryFields: Map<string, Set<string>>;
}

export interface Discovery {
  routes: RouteTarget[];
  /** Files under /assets/ that exist, and public files outside it (favicon, sample images). */
  assets: string[];
  publicFiles: string[];
  /** Every same-site path the crawl saw, for the record. */
  crawled: number;
  /**
   * Cookies as the store set them during the crawl (`name=value`), such as a cart it corrected:
   * a request carrying one is a real browser's, and reaches past the checks a forged one fails.
   */
  cookies: string[];
}

export function readManifest(buildDir: string): ManifestRoute[] {
  const assetsDir = join(buildDir, 'client', 'assets');
  const manifests = existsSync(assetsDir)
    ? readdirSync(assetsDir)
        .filter((name) => /^manifest-[\w-]+\.js$/.test(name))
        .map((name) => join(assetsDir, name))
        // Old builds may leave older manifests behind; the newest is the one being served.
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    : [];
  if (manifests.length === 0) {
    throw new Error(
      `No route manifest in ${assetsDir}: build first (node scripts/ensure-build.js)`,
    );
  }
  const text = readFileSync(manifests[0]!, 'utf8');
  const json = text.slice(text.indexOf('=') + 1).replace(/;\s*$/, '');
  const manifest = JSON.parse(json) as { routes: Record<string, ManifestRoute> };
  return Object.values(manifest.routes);
}

/** Joins each route's path with its parents'; pathless layouts add nothing. */
export function routeTargets(routes: readonly ManifestRoute[]): RouteTarget[] {
  const byId = new Map(routes.map((route) => [route.id, route]));
  const fullPattern = (route: ManifestRoute): string => {
    const parts: string[] = [];
    for (let current: ManifestRoute | undefined = route; current;) {
      if (current.path) parts.unshift(current.path.replace(/^\/+|\/+$/g, ''));
      current = current.parentId ? byId.get(current.parentId) : undefined;
    }
    return `/${parts.filter(Boolean).join('/')}`;
  };
  const targets = new Map<string, RouteTarget>();
  for (const route of routes) {
    // Routes without a path of their own (root, layouts) only run under a child's URL.
    if (!route.index && !route.path) continue;
    const pattern = fullPattern(route);
    const existing = targets.get(pattern);
    if (existing) {
      existing.id += `+${route.id}`;
      existing.hasAction ||= route.hasAction;
      existing.hasLoader ||= route.hasLoader;
      continue;
    }
    targets.set(pattern, {
      id: route.id,
      pattern,
      index: !!route.index,
      hasAction: route.hasAction,
      hasLoader: route.hasLoader,
      resource: route.hasDefaultExport === false,
      params: new Map(),
      postFields: new Map(),
      queryFields: new Map(),
    });
  }
  return [...targets.values()].sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** A matcher for a route pattern: the dynamic segments' values, or null. */
function compilePattern(pattern: string): (path: string) => Map<string, string> | null {
  const names: string[] = [];
  let source = '^';
  for (const segment of pattern.split('/').filter(Boolean)) {
    const optional = segment.endsWith('?');
    const bare = optional ? segment.slice(0, -1) : segment;
    let part: string;
    if (bare === '*') {
      names.push('*');
      part = '(?:/(.*))?';
      source += part;
      continue;
    } else if (bare.startsWith(':')) {
      names.push(bare.slice(1));
      part = '/([^/]+)';
    } else {
      part = `/${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    }
    source += optional ? `(?:${part})?` : part;
  }
  const regex = new RegExp(`${source}/?$`, 'i');
  return (path) => {
    const match = regex.exec(path);
    if (!match) return null;
    const values = new Map<string, string>();
    names.forEach((name, i) => {
      const value = match[i + 1];
      if (value) values.set(name, value);
    });
    return values;
  };
}

/** Splats match everything: try them last, and fewer dynamic segments first. */
function specificity(pattern: string): number {
  if (pattern.includes('*')) return 1000;
  return (pattern.match(/:/g) ?? []).length * 10 + (pattern.match(/\?/g) ?? []).length;
}

function add(map: Map<string, Set<string>>, key: string, value: string) {
  let values = map.get(key);
  if (!values) map.set(key, (values = new Set()));
  // A few samples are enough, and a long list would let one value dominate nothing.
  if (values.size < 40) values.add(value);
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    found.set(match[1]!.toLowerCase(), decodeEntities(match[2] ?? match[3] ?? ''));
  }
  return found;
}

export interface ScrapedForm {
  method: string;
  action: string;
  fields: [name: string, value: string][];
}

export function scrapeForms(html: string, pagePath: string): ScrapedForm[] {
  const forms: ScrapedForm[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attrs = attributes(match[1]!);
    const fields: [string, string][] = [];
    const inner = match[2]!;
    for (const control of inner.matchAll(/<(input|button|textarea|select)\b([^>]*)>/gi)) {
      const controlAttrs = attributes(control[2]!);
      const name = controlAttrs.get('name');
      if (!name) continue;
      fields.push([name, controlAttrs.get('value') ?? '']);
    }
    for (const select of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
      const name = attributes(select[1]!).get('name');
      if (!name) continue;
      for (const option of select[2]!.matchAll(/<option\b([^>]*)>/gi)) {
        const value = attributes(option[1]!).get('value');
        if (value !== undefined) fields.push([name, value]);
      }
    }
    // Controls placed elsewhere in the page that belong to this form by its id (the checkout's
    // coupon field and its buttons, in the order summary).
    const id = attrs.get('id');
    if (id) {
      for (const control of html.matchAll(/<(?:input|button|textarea)\b([^>]*)>/gi)) {
        const controlAttrs = attributes(control[1]!);
        const name = controlAttrs.get('name');
        if (name && controlAttrs.get('form') === id) {
          fields.push([name, controlAttrs.get('value') ?? '']);
        }
      }
    }
    forms.push({
      method: (attrs.get('method') ?? 'get').toLowerCase(),
      action: attrs.get('action') ?? pagePath,
      fields,
    });
  }
  return forms;
}

interface Link {
  href: string;
  /** The sitemap names whatever host it was asked on: only its paths are taken. */
  pathOnly: boolean;
}

function links(body: string): Link[] {
  const found: Link[] = [];
  for (const match of body.matchAll(/\b(?:href|src|action)\s*=\s*"([^"]*)"/gi)) {
    found.push({ href: decodeEntities(match[1]!), pathOnly: false });
  }
  for (const match of body.matchAll(/<loc>([^<]+)<\/loc>/gi)) {
    found.push({ href: decodeEntities(match[1]!), pathOnly: true });
  }
  return found;
}

function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path, base) : [`/${relative(base, path)}`];
    });
}

const CRAWL_LIMIT = 80;
/** How often a page that needs a cart is read again with one: each view has a fresh form key. */
const CART_VIEWS = 5;

/**
 * What a shopper types into a text field the page leaves empty, by the field's name, so that a
 * form sent as a shopper fills it (checkout: a valid CPF, phone, CEP) gets past its checks.
 */
const TYPED_VALUES: Record<string, readonly string[]> = {
  customerName: ['Maria da Silva'],
  customerEmail: ['maria@example.com'],
  customerCpf: ['529.982.247-25', '111.444.777-35'],
  customerPhone: ['(11) 98765-4321'],
  zipCode: ['01310-100'],
  street: ['Avenida Paulista'],
  number: ['1000'],
  neighborhood: ['Bela Vista'],
  city: ['São Paulo'],
  email: ['maria@example.com'],
  // 'Encontrar meu pedido' on /historico: an e-mail or a CPF.
  contact: ['maria@example.com', '529.982.247-25'],
  // The admin's coupon form and the orders list's coupon filter.
  code: ['VERAO10', 'bemvindo10'],
  value: ['10', '20,00'],
  coupon: ['bemvindo10'],
  // 'Cupom de desconto': the fuzzed store's coupon, in a shopper's case, and one it does not know.
  couponCode: [FUZZ_COUPON.toLowerCase(), 'NAOEXISTE'],
};

/**
 * Query parameters no page links with, by the pages a shopper lands on with them (a coupon link,
 * '/?cupom=', comes from an ad or a message) or a script asks with.
 */
const LANDING_PARAMS: Record<string, [name: string, value: string][]> = {
  '/': [['cupom', FUZZ_COUPON]],
  '/products': [['cupom', FUZZ_COUPON]],
  '/cart': [['cupom', FUZZ_COUPON]],
  '/checkout': [['cupom', FUZZ_COUPON]],
  // Asked by the 'Calcular frete' forms and the checkout once JavaScript runs: for the cart, or
  // for one unit of a product (and its variant).
  // The admin's product picker asks as the merchant types (no form or link carries `q`).
  '/admin/products/options': [
    ['q', 'fone'],
    ['q', 'fones de ouvido bluetooth'],
  ],
  '/frete': [
    ['cep', '01310-100'],
    ['produto', FUZZ_PRODUCT_SLUG],
    ['variante', 'NAOEXISTE'],
  ],
};

/** The cart cookie a browser holding one unit of the product sends (React Router's base64 JSON). */
function cartCookie(productId: string): string {
  const value = Buffer.from(JSON.stringify([[productId, 1, 0, '']])).toString('base64');
  return `vitrine_cart=${encodeURIComponent(value)}`;
}

/** The coupon a browser that followed a coupon link holds: the cart shows 'Remover cupom'. */
const COUPON_COOKIE = `vitrine_coupon=${encodeURIComponent(
  Buffer.from(JSON.stringify(FUZZ_COUPON)).toString('base64'),
)}`;

/**
 * Forms no crawl can reach (their page needs a token or an order's key from an e-mail, or, as
 * 'Esqueci minha senha', is linked only from the sign-in page a signed-in crawl is sent away
 * from): their fields, with a well-formed value that matches nothing, so the action gets past
 * its first checks.
 */
const UNREACHABLE_FORMS: Record<string, [name: string, value: string][]> = {
  '/avise-me/confirmar': [['chave', 'A'.repeat(43)]],
  // The recovery e-mail's links (a key that matches nothing) and the checkout's contact, which
  // its script posts on the fields' change (no form posts there).
  '/carrinho/recuperar': [['chave', 'A'.repeat(32)]],
  '/carrinho/descadastrar': [
    ['chave', 'A'.repeat(32)],
    ['List-Unsubscribe', 'One-Click'],
  ],
  '/checkout/contato': [
    ['customerEmail', 'maria@example.com'],
    ['customerName', 'Maria da Silva'],
    ['customerPhone', '(11) 98765-4321'],
    ['recoveryOptOut', 'on'],
  ],
  '/admin/redefinir-senha': [
    ['chave', 'A'.repeat(43)],
    ['newPassword', 'senha-nova-123'],
    ['confirmPassword', 'senha-nova-123'],
  ],
  '/avaliar': [
    ['orderId', '5a3b1e00-0000-4000-8000-000000000fff'],
    ['chave', '5a3b1e00-0000-4000-8000-000000000ffe'],
    ['productId', '5a3b1e00-0000-4000-8000-000000000d01'],
    ['rating', '5'],
    ['comment', 'Muito bom.'],
  ],
  '/admin/esqueci-senha': [['email', 'maria@example.com']],
  // The checkout's 'Forma de envio' shows only once a CEP is known (the crawl never gives one):
  // a service the fake carrier offers with a price, and one it does not.
  '/checkout': [
    ['shippingOption', '1:2550'],
    ['shippingOption', '999:100'],
  ],
};

/**
 * Crawls the store from the route patterns without dynamic segments and the sitemap, following
 * same-site links, and files what it sees under the routes their URLs match.
 */
export async function discover(options: {
  host: string;
  port: number;
  buildDir: string;
  /** Sent on admin pages (never to 'Sair'), so their forms are found too. */
  adminCookie?: string;
}): Promise<Discovery> {
  const routes = routeTargets(readManifest(options.buildDir));
  const matchers = [...routes]
    .sort((a, b) => specificity(a.pattern) - specificity(b.pattern))
    .map((route) => ({ route, match: compilePattern(route.pattern) }));
  const routeFor = (path: string) => {
    for (const { route, match } of matchers) {
      const params = match(path);
      if (params) return { route, params };
    }
    return undefined;
  };

  for (const [path, params] of Object.entries(LANDING_PARAMS)) {
    const target = routeFor(path);
    for (const [name, value] of params) if (target) add(target.route.queryFields, name, value);
  }
  for (const [path, fields] of Object.entries(UNREACHABLE_FORMS)) {
    const target = routeFor(path);
    for (const [name, value] of fields) {
      if (target?.route.hasAction) add(target.route.postFields, name, value);
      if (target) add(target.route.queryFields, name, value);
    }
  }

  const clientDir = join(options.buildDir, 'client');
  const assets = new Set(listFiles(join(clientDir, 'assets')).map((file) => `/assets${file}`));
  const publicFiles = new Set(listFiles(clientDir).filter((file) => !file.startsWith('/assets/')));

  // Pages that send a browser without a cart elsewhere (the checkout): read again with one.
  const redirected: string[] = [];
  const cookies = new Set<string>();
  const fileForms = (body: string, path: string) => {
    for (const form of scrapeForms(body, path)) {
      const action = new URL(form.action, `${origin}${path}`);
      if (action.origin !== origin) continue;
      const target = routeFor(action.pathname);
      if (!target) continue;
      const fields = form.method === 'post' ? target.route.postFields : target.route.queryFields;
      for (const [name, value] of form.fields) {
        if (value === '' && TYPED_VALUES[name]) {
          for (const typed of TYPED_VALUES[name]) add(fields, name, typed);
        } else add(fields, name, value);
      }
    }
  };
  const get = async (path: string, cookie?: string) => {
    const response = await send({
      host: options.host,
      port: options.port,
      data: Buffer.from(
        `GET ${path} HTTP/1.1\r\nHost: ${options.host}:${options.port}\r\n` +
          (cookie ? `Cookie: ${cookie}\r\n` : '') +
          'Accept: text/html,*/*\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n',
      ),
      head: false,
      timeoutMs: 10_000,
    });
    for (const [name, value] of response.headers ?? []) {
      const pair = value.split(';')[0]!.trim();
      if (name.toLowerCase() === 'set-cookie' && /^[\w-]+=./.test(pair)) cookies.add(pair);
    }
    const type = headerValue(response.headers, 'content-type') ?? '';
    const status = response.status ?? 0;
    if (response.outcome !== 'response' || !/html|xml/.test(type)) return { status, body: null };
    return { status, body: decodeBody(response)?.toString('utf8') ?? '' };
  };

  const queue = [
    '/sitemap.xml',
    '/feeds/google.xml',
    '/feeds/meta.csv',
    ...routes.filter((route) => !/[:*?]/.test(route.pattern)).map((route) => route.pattern),
  ];
  const seen = new Set<string>();
  const origin = `http://${options.host}:${options.port}`;
  while (queue.length > 0 && seen.size < CRAWL_LIMIT) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const admin = options.adminCookie && SIGNED_IN_PATH.test(path);
    const { status, body } = await get(path, admin ? options.adminCookie : undefined);
    if (status >= 300 && status < 400 && !admin) redirected.push(path);
    if (body === null) continue;

    fileForms(body, path);
    for (const link of links(body)) {
      let url: URL;
      try {
        url = new URL(link.href, `${origin}${path}`);
      } catch {
        continue;
      }
      if (!/^https?:$/.test(url.protocol)) continue;
      if (url.origin !== origin && !link.pathOnly) continue;
      const pathname = url.pathname;
      if (pathname.startsWith('/assets/')) {
        assets.add(pathname);
        continue;
      }
      if (/\.(svg|png|jpe?g|webp|avif|gif|ico|woff2?|css|js)$/i.test(pathname)) {
        publicFiles.add(pathname);
        continue;
      }
      const target = routeFor(pathname);
      if (target) {
        for (const [name, value] of target.params) add(target.route.params, name, value);
        for (const [name, value] of url.searchParams) add(target.route.queryFields, name, value);
      }
      if (!seen.has(pathname) && queue.length < CRAWL_LIMIT * 4) queue.push(pathname);
    }
  }
  // A sold-out product would leave the cart empty: the first product the page takes will do.
  const productIds = [
    ...new Set(routes.flatMap((route) => [...(route.postFields.get('productId') ?? [])])),
  ]
    .filter(Boolean)
    .slice(0, 10);
  // The cart's own forms (quantities, 'Cupom de desconto') show only with something in it.
  for (const path of [...redirected, '/cart']) {
    for (const productId of productIds) {
      const first = await get(path, cartCookie(productId));
      if (first.status !== 200 || first.body === null) continue;
      // The cart answers even when it had to drop the product: its lines' forms must name it.
      if (path === '/cart' && !first.body.includes(productId)) continue;
      fileForms(first.body, path);
      for (let view = 1; view < CART_VIEWS; view++) {
        // Every other view holding a coupon, for the forms that remove it.
        const cookie = cartCookie(productId) + (view % 2 === 1 ? `; ${COUPON_COOKIE}` : '');
        const { body } = await get(path, cookie);
        if (body) fileForms(body, path);
      }
      break;
    }
  }
  return {
    routes,
    assets: [...assets].sort(),
    publicFiles: [...publicFiles].sort(),
    crawled: seen.size,
    cookies: [...cookies].sort(),
  };
}
