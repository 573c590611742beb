import { METHODS } from 'node:http';

import type express from 'express';

import { isAdminPath } from '~/lib/admin-path';
import { canonicalOrigin } from '~/lib/canonical-origin';
import type { Env } from '~/lib/env.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import { MESSAGES, refuse } from './error-page';
import { hostAllowList, originOf } from './origin';

/** The methods the store answers; React Router gives 405 itself where a route lacks an action. */
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * No address of the store comes near these. React Router matches every parent of a path, so the
 * work per request grows with the square of its segments: 6,000 of them took 1.7 s of CPU.
 */
const MAX_URL_LENGTH = 4096;
const MAX_PATH_SEGMENTS = 32;

/**
 * The admin's product forms (images), product import (CSV) and settings (logo, favicon, banner)
 * may send up to MAX_UPLOAD_BYTES; every other body stays under MAX_BODY_BYTES. `.data` is how
 * React Router posts from scripts.
 */
const UPLOAD_PATH = /^\/admin\/(?:products(?:\/|\.data$|$)|settings(?:\.data)?$)/;

export function isUploadRequest(req: express.Request): boolean {
  return req.method === 'POST' && UPLOAD_PATH.test(req.path);
}

/**
 * The path React Router will match for this request, as it matches: dot segments resolved,
 * escapes decoded and case ignored, so "/Admin/login" and "/%61dmin" are the admin here too.
 * Whatever decides by "is this the admin?" (its policy and headers, its own host) reads this.
 */
export function routePath(req: express.Request): string {
  // Asked up to four times a request (policy, headers, admin host); originalUrl never changes.
  let path = routePaths.get(req);
  if (path === undefined) {
    path = matchedPath(req);
    routePaths.set(req, path);
  }
  return path;
}

const routePaths = new WeakMap<express.Request, string>();

function matchedPath(req: express.Request): string {
  let pathname: string;
  try {
    pathname = new URL(`http://host${req.originalUrl}`).pathname;
  } catch {
    pathname = req.path;
  }
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replaceAll('/', '%2F');
      } catch {
        return segment;
      }
    })
    .join('/')
    .toLowerCase();
}

/**
 * What the admin's own host (ADMIN_URL) answers besides static files and /healthz, which come
 * before the guard: the admin's pages and data, uploaded images, and React Router's route
 * manifest, which the admin's links fetch as they appear.
 */
function servedOnAdminHost(path: string): boolean {
  return isAdminPath(path) || path.startsWith('/media/') || path === '/__manifest';
}

/** Where a request's URLs point, decided by the guard for the routes that follow it. */
export interface RequestOrigins {
  /** Absolute URLs in pages, feeds and e-mails: PUBLIC_URL, else canonical_url, else the request's own. */
  public: string;
  /** The origin of the URL React Router sees: the request's own when its host is allowed. */
  router: string;
}

export function requestOrigins(res: express.Response): RequestOrigins {
  return res.locals.origins as RequestOrigins;
}

/** The request's own origin, as `wellFormed` read it from Host or trusted X-Forwarded-*. */
function ownOrigin(res: express.Response): URL {
  return res.locals.ownOrigin as URL;
}

/**
 * The one place that decides whether a request gets to the store at all. `wellFormed` runs before
 * everything else; `sameOrigin` before the routes (static files do without it).
 */
export function createRequestGuard(
  env: Env,
  settings: SettingsStore,
): { wellFormed: express.RequestHandler; sameOrigin: express.RequestHandler } {
  const isAllowedHost = hostAllowList(env);
  const adminHostname = env.ADMIN_URL ? new URL(env.ADMIN_URL).hostname : null;

  const wellFormed: express.RequestHandler = (req, res, next) => {
    if (!ALLOWED_METHODS.includes(req.method)) {
      res.set('Allow', ALLOWED_METHODS.join(', '));
      const known = METHODS.includes(req.method);
      refuse(res, known ? 405 : 501, MESSAGES.methodNotAllowed, `method ${req.method}`);
      return;
    }
    if (req.method === 'OPTIONS') {
      res.set('Allow', ALLOWED_METHODS.join(', ')).status(204).end();
      return;
    }
    // An absolute-form target ("GET http://other/ HTTP/1.1") or "*" names no page of ours.
    if (!req.url.startsWith('/')) {
      refuse(res, 400, MESSAGES.badAddress, 'request target');
      return;
    }
    const path = req.url.split('?', 1)[0]!;
    if (req.url.length > MAX_URL_LENGTH || path.split('/').length - 1 > MAX_PATH_SEGMENTS) {
      refuse(res, 414, 'Endereço longo demais.', 'URL too long');
      return;
    }
    if (!req.get('Host')) {
      refuse(res, 400, MESSAGES.badAddress, 'no Host header');
      return;
    }
    // req.protocol and req.host read X-Forwarded-Proto/-Host only from trusted proxies.
    const own = originOf(req.protocol, req.host);
    if (!own) {
      refuse(res, 400, MESSAGES.badAddress, 'malformed Host or X-Forwarded-* header');
      return;
    }
    const length = Number(req.get('Content-Length') ?? 0);
    // Only the size here: the adapter lets an upload pass MAX_BODY_BYTES once it has seen the
    // admin's session.
    if (length > (isUploadRequest(req) ? env.MAX_UPLOAD_BYTES : env.MAX_BODY_BYTES)) {
      refuse(res, 413, MESSAGES.tooLarge, `body of ${length} bytes`);
      return;
    }
    res.locals.ownOrigin = own;
    next();
  };

  const sameOrigin: express.RequestHandler = async (req, res, next) => {
    const own = ownOrigin(res);
    const onAdminHost = adminHostname !== null && own.hostname === adminHostname;
    if (adminHostname !== null && onAdminHost !== servedOnAdminHost(routePath(req))) {
      // The admin has an origin of its own (ADMIN_URL, ADR 019): each side sends the other's
      // addresses over, keeping path and query. The admin host's bare address is the admin.
      const target =
        onAdminHost && routePath(req) === '/'
          ? `${env.ADMIN_URL}/admin`
          : `${onAdminHost ? env.PUBLIC_URL : env.ADMIN_URL}${req.originalUrl}`;
      res.set('Cache-Control', 'no-store').redirect(302, target);
      return;
    }
    const requestOrigin = isAllowedHost(own.hostname) ? own.origin : null;
    const publicOrigin =
      env.PUBLIC_URL ?? canonicalOrigin((await settings.get()).canonical_url) ?? requestOrigin;
    if (!publicOrigin) {
      refuse(
        res,
        400,
        'Endereço do site não reconhecido.',
        `host ${own.host} is not allowed: set PUBLIC_URL or ALLOWED_HOSTS`,
      );
      return;
    }
    // What the browser's Origin may be: this host, and the address it is known by. The admin's
    // own host does not take posts from the storefront, where third-party tags run.
    const siteOrigin = onAdminHost ? env.ADMIN_URL! : publicOrigin;
    if (!SAFE_METHODS.has(req.method)) {
      const crossSite = crossSiteReason(req, [requestOrigin, siteOrigin]);
      if (crossSite) {
        refuse(
          res,
          403,
          'Por segurança, recusamos este envio: ele veio de outro site. Volte à loja e tente de novo.',
          crossSite,
        );
        return;
      }
    }
    // React Router refuses an action whose Origin differs from its URL's: give it the origin
    // the browser used, which the check above has just accepted.
    const origin = req.get('Origin');
    const router = origin && origin === siteOrigin ? siteOrigin : (requestOrigin ?? siteOrigin);
    res.locals.origins = { public: publicOrigin, router } satisfies RequestOrigins;
    next();
  };

  return { wellFormed, sameOrigin };
}

/**
 * Why a state-changing request looks forged by another site, or null. Browsers say where a
 * request comes from (Sec-Fetch-Site, Origin); clients that say nothing (curl, a payment
 * provider's webhook) are not browsers carrying a shopper's cookies, and pass.
 */
function crossSiteReason(req: express.Request, trusted: (string | null)[]): string | null {
  const site = req.get('Sec-Fetch-Site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `cross-site ${req.method} (Sec-Fetch-Site: ${site.slice(0, 20)})`;
  }
  const origin = req.get('Origin');
  if (origin !== undefined && !trusted.includes(origin)) {
    return `cross-origin ${req.method} (Origin not the store's)`;
  }
  return null;
}
