// npx tsx bench/bundle-size.ts [build dir] [--no-browser]: how much JavaScript the storefront
// sends, gzip -9, from the build's route manifest (entry, root and every route outside /admin,
// with what they import), and the admin's own on top; per page, the framework's share (React,
// React DOM, React Router) apart from ours. Names any admin-only library that a storefront chunk
// pulls in.
//
// Then, unless --no-browser, what Chromium really downloads on a first visit: the production
// server from the same build on a fresh sample store, each page in a fresh context (empty
// cache) on a phone's viewport, and the JavaScript it fetched in the first 5 s after navigation
// start (the deferred scripts, their module preloads and any prefetch), as bytes on the wire:
// the encoded body and the response headers, from the DevTools protocol's Network events, the
// framework's files and ours apart. Home, catalogue, a product page, the cart, the checkout and an
// order's confirmation are each held to OURS_BUDGET_BYTES of ours (issue 37).
//
// Exits 1 if a storefront chunk carries admin code or a page is over OURS_BUDGET_BYTES.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';

import type { Browser } from 'playwright-core';

import { SAMPLE_PRODUCTS } from '~/flows/sample-store';

import { launchBrowser } from '../tests/support/browser';
import { PHONE } from '../tests/support/interaction';
import { sampleProductPath } from '../tests/support/sample';
import { VALID_CHECKOUT } from '../tests/support/visitor';

import { printTable, ROOT, startServer } from './support';

interface ManifestEntry {
  id?: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasDefaultExport?: boolean;
  module: string;
  imports?: string[];
  css?: string[];
}

const args = process.argv.slice(2);
const withBrowser = !args.includes('--no-browser');
const buildDir = resolve(
  args.find((arg) => !arg.startsWith('--')) ?? process.env.VITRINE_BUILD_DIR ?? 'build',
);
const assets = join(buildDir, 'client', 'assets');
// The newest: a build folder outside the repository is not emptied by the next build.
const manifestFile = readdirSync(assets)
  .filter((name) => /^manifest-[\w-]+\.js$/.test(name))
  .sort((a, b) => statSync(join(assets, b)).mtimeMs - statSync(join(assets, a)).mtimeMs)[0];
if (!manifestFile) throw new Error(`No route manifest in ${assets}: build first`);
const text = readFileSync(join(assets, manifestFile), 'utf8');
const manifest = JSON.parse(text.slice(text.indexOf('=') + 1).replace(/;\s*$/, '')) as {
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry>;
};

// By URL, not by file or id: a route is the admin's when its full path is under /admin.
const fullPath = (route: ManifestEntry): string =>
  [route.parentId ? fullPath(manifest.routes[route.parentId]!) : '', route.path ?? '']
    .filter(Boolean)
    .join('/');
const isAdmin = (id: string) => /^\/?admin(\/|$)/.test(fullPath(manifest.routes[id]!));
const files = (entries: ManifestEntry[]) =>
  new Set(entries.flatMap((entry) => [entry.module, ...(entry.imports ?? [])]));
const storefront = files([
  manifest.entry,
  ...Object.values(manifest.routes).filter((route) => !isAdmin(route.id!)),
]);
const admin = files(Object.values(manifest.routes).filter((route) => isAdmin(route.id!)));
const adminOnly = [...admin].filter((file) => !storefront.has(file));

// Pages share most of their files: each is compressed once.
const gzipped = new Map<string, number>();
const gzipBytes = (file: string) => {
  let bytes = gzipped.get(file);
  if (bytes === undefined) {
    bytes = gzipSync(readFileSync(join(buildDir, 'client', file)), { level: 9 }).length;
    gzipped.set(file, bytes);
  }
  return bytes;
};
const total = (set: Iterable<string>) => [...set].reduce((sum, file) => sum + gzipBytes(file), 0);

// Code that only the admin may load: finding it in a storefront chunk is a leak.
const ADMIN_MARKERS = [
  ['uPlot', /uPlot|u-legend|u-over/],
  ['admin screens', /Salvar configurações|Usuários administradores|Detalhes do pedido/],
] as const;
const leaks = [...storefront].flatMap((file) => {
  const code = readFileSync(join(buildDir, 'client', file), 'utf8');
  return ADMIN_MARKERS.filter(([, pattern]) => pattern.test(code)).map(
    ([name]) => `${name} in ${file}`,
  );
});

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`Build: ${buildDir}`);
console.log(`Storefront JavaScript: ${storefront.size} files, ${kb(total(storefront))} gzip`);
console.log(`Admin-only JavaScript: ${adminOnly.length} files, ${kb(total(adminOnly))} gzip`);

/** The framework's files (vite.config.ts names a library's chunk after it). */
const FRAMEWORK_FILE = /\/assets\/(?:react|react-dom|react-router)-[\w-]{8}\.js$/;

// What a shopper's browser loads for the first page it opens: the entry and the route's chain.
const chain = (route: ManifestEntry): ManifestEntry[] =>
  route.parentId ? [...chain(manifest.routes[route.parentId]!), route] : [route];
console.log('First load per storefront page (gzip: all = framework + ours, our files):');
for (const route of Object.values(manifest.routes)) {
  // Pages only: a leaf with a component (layouts and resource routes are no page of their own).
  const leaf = route.index || !Object.values(manifest.routes).some((r) => r.parentId === route.id);
  if (isAdmin(route.id!) || !route.hasDefaultExport || !leaf) continue;
  const page = files([manifest.entry, ...chain(route)]);
  const ours = [...page].filter((file) => !FRAMEWORK_FILE.test(file));
  console.log(
    `  /${fullPath(route)}`.padEnd(34),
    `${kb(total(page))} = ${kb(total(page) - total(ours))} + ${kb(total(ours))} (${ours.length} files)`,
  );
}
console.log(
  leaks.length
    ? `Admin code in storefront chunks:\n  ${leaks.join('\n  ')}`
    : 'No admin code in storefront chunks.',
);

// ---------------------------------------------------------------------------------------------
// A first visit in Chromium

/**
 * Issue 37's budget for our JavaScript on a first visit, on the wire with its headers: everything
 * but React, React DOM and React Router, which take ~92 KB of their own (ADR 023).
 */
const OURS_BUDGET_BYTES = 25 * 1024;
const WINDOW_MS = 5_000;
/** How long a request sent within the window may take to finish before it counts as lost. */
const STRAGGLER_MS = 15_000;

const PRODUCT = SAMPLE_PRODUCTS[0]!;
/**
 * Each page a first visit opens, the cart's and checkout's with a product in the cart, the order
 * confirmation's once that cart is bought (its path then names the order).
 */
const VISITS: {
  label: string;
  path: string;
  budget: boolean;
  before?: 'cart' | 'order';
}[] = [
  { label: 'home', path: '/', budget: true },
  { label: 'catalogue', path: '/products', budget: true },
  { label: 'product', path: sampleProductPath(PRODUCT.name), budget: true },
  { label: 'cart (1 item)', path: '/cart', budget: true, before: 'cart' },
  { label: 'checkout (1 item)', path: '/checkout', budget: true, before: 'cart' },
  { label: 'order confirmation (PIX)', path: '/order-confirmation', budget: true, before: 'order' },
];

interface Request {
  url: string;
  type?: string;
  /** When it was sent, in the protocol's seconds. */
  sentAt?: number;
  mimeType?: string;
  acceptEncoding?: string;
  contentEncoding?: string;
  /** From the memory or disk cache (a module preload the import reuses): nothing downloaded. */
  cached: boolean;
  body: number;
  /** Headers and body, once it has finished. */
  total?: number;
}

interface Download {
  files: number;
  body: number;
  headers: number;
  /** Body and headers of the files that are not React's or React Router's, and how many. */
  ours: number;
  ourFiles: number;
  acceptEncodings: Set<string>;
  contentEncodings: Set<string>;
  /** Sent within the window but not finished STRAGGLER_MS later. */
  unfinished: number;
}

const headerValue = (headers: Record<string, unknown>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] as string | undefined;

const isJavaScript = (request: Request) =>
  request.type === 'Script' || /javascript/.test(request.mimeType ?? '');

async function firstVisit(browser: Browser, baseUrl: string, visit: (typeof VISITS)[number]) {
  const context = await browser.newContext(PHONE);
  try {
    let path = visit.path;
    if (visit.before) {
      // The same POST a card's form sends, in this context: its cookie is the cart.
      const added = await context.request.post(`${baseUrl}/cart`, {
        form: { intent: 'add', productId: PRODUCT.id, quantity: '1' },
      });
      if (!added.ok()) throw new Error(`Adding to the cart answered ${added.status()}`);
    }
    if (visit.before === 'order') {
      // The checkout form's POST: its answer sends the browser to the order's confirmation page.
      const placed = await context.request.post(`${baseUrl}/checkout`, {
        form: { ...VALID_CHECKOUT, idempotencyKey: randomUUID() },
        maxRedirects: 0,
      });
      const location = placed.headers().location;
      if (placed.status() !== 303 || !location?.startsWith(visit.path)) {
        throw new Error(`The checkout answered ${placed.status()} ${location ?? ''}`);
      }
      path = location;
    }
    const page = await context.newPage();
    const network = await context.newCDPSession(page);
    const requests = new Map<string, Request>();
    const request = (id: string) => {
      let found = requests.get(id);
      if (!found) requests.set(id, (found = { url: '', cached: false, body: 0 }));
      return found;
    };
    network.on('Network.requestWillBeSent', (event) => {
      Object.assign(request(event.requestId), {
        url: event.request.url,
        type: event.type,
        sentAt: event.timestamp,
      });
    });
    // The headers Chromium really sent (requestWillBeSent has only those the page set).
    network.on('Network.requestWillBeSentExtraInfo', (event) => {
      request(event.requestId).acceptEncoding = headerValue(event.headers, 'accept-encoding');
    });
    network.on('Network.responseReceived', (event) => {
      const { response } = event;
      Object.assign(request(event.requestId), {
        mimeType: response.mimeType,
        contentEncoding: headerValue(response.headers, 'content-encoding') ?? 'none',
        cached: !!(response.fromDiskCache || response.fromPrefetchCache),
      });
    });
    network.on('Network.requestServedFromCache', (event) => {
      request(event.requestId).cached = true;
    });
    network.on('Network.dataReceived', (event) => {
      request(event.requestId).body += event.encodedDataLength;
    });
    network.on('Network.loadingFinished', (event) => {
      request(event.requestId).total = event.encodedDataLength;
    });
    await network.send('Network.enable');

    const started = Date.now();
    const response = await page.goto(`${baseUrl}${path}`);
    if (response?.status() !== 200) throw new Error(`${path} answered ${response?.status()}`);
    await sleep(Math.max(0, started + WINDOW_MS - Date.now()));
    const navigationStart = [...requests.values()].find(
      (candidate) => candidate.type === 'Document',
    )?.sentAt;
    if (navigationStart === undefined) throw new Error(`No document request for ${path}`);
    const inWindow = () =>
      [...requests.values()].filter(
        (candidate) =>
          candidate.sentAt !== undefined &&
          (candidate.sentAt - navigationStart) * 1000 <= WINDOW_MS &&
          candidate.type !== 'Document',
      );
    const deadline = Date.now() + STRAGGLER_MS;
    while (inWindow().some((candidate) => candidate.total === undefined) && Date.now() < deadline) {
      await sleep(100);
    }
    const scripts = inWindow().filter((candidate) => isJavaScript(candidate) && !candidate.cached);
    const finished = scripts.filter((candidate) => candidate.total !== undefined);
    const body = finished.reduce((sum, candidate) => sum + candidate.body, 0);
    const total = finished.reduce((sum, candidate) => sum + candidate.total!, 0);
    const download: Download = {
      files: finished.length,
      body,
      headers: total - body,
      ours: finished
        .filter((candidate) => !FRAMEWORK_FILE.test(candidate.url))
        .reduce((sum, candidate) => sum + candidate.total!, 0),
      ourFiles: finished.filter((candidate) => !FRAMEWORK_FILE.test(candidate.url)).length,
      acceptEncodings: new Set(scripts.flatMap((candidate) => candidate.acceptEncoding ?? [])),
      contentEncodings: new Set(finished.flatMap((candidate) => candidate.contentEncoding ?? [])),
      unfinished: scripts.length - finished.length,
    };
    return download;
  } finally {
    await context.close();
  }
}

/** Measures every visit; true when a page with a budget is over it. */
async function firstVisits(): Promise<boolean> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bundle-size-'));
  const server = await startServer({ DATA_DIR: dataDir, SEED: 'true' }, undefined, {
    root: ROOT,
    buildDir,
  });
  const browser = await launchBrowser();
  try {
    const downloads = new Map<string, Download>();
    for (const visit of VISITS) {
      downloads.set(visit.label, await firstVisit(browser, server.url, visit));
    }
    const all = [...downloads.values()];
    const sent = new Set(all.flatMap((download) => [...download.acceptEncodings]));
    console.log(
      `\nFirst visit in Chromium (phone ${PHONE.viewport.width}×${PHONE.viewport.height}, empty ` +
        `cache): JavaScript downloaded in the first ${WINDOW_MS / 1000} s, bytes on the wire. ` +
        `Accept-Encoding sent: ${[...sent].join(' | ') || '?'}.\n`,
    );
    let over = false;
    printTable(
      [
        'Page',
        'Files (ours)',
        'On the wire',
        'Body',
        'Headers',
        'Content-Encoding',
        'Framework',
        'Ours',
        `Ours vs ${kb(OURS_BUDGET_BYTES)}`,
      ],
      VISITS.map((visit) => {
        const download = downloads.get(visit.label)!;
        const wire = download.body + download.headers;
        const verdict = !visit.budget
          ? 'information'
          : download.ours <= OURS_BUDGET_BYTES
            ? 'within'
            : 'over';
        if (visit.budget && download.ours > OURS_BUDGET_BYTES) over = true;
        return [
          `${visit.label} (${visit.path})`,
          `${download.files} (${download.ourFiles})` +
            (download.unfinished ? ` (+${download.unfinished} unfinished)` : ''),
          kb(wire),
          kb(download.body),
          kb(download.headers),
          [...download.contentEncodings].join(', ') || '—',
          kb(wire - download.ours),
          kb(download.ours),
          verdict,
        ];
      }),
      1,
    );
    return over;
  } finally {
    await browser.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const overBudget = withBrowser ? await firstVisits() : false;
if (overBudget) {
  console.log(
    `\nA page downloads more than ${kb(OURS_BUDGET_BYTES)} of our JavaScript (besides React, React DOM and React Router).`,
  );
}
process.exitCode = leaks.length || overBudget ? 1 : 0;
