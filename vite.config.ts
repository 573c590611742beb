import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import type { ChunkingContext, ModuleInfo } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
// Fonts and images are compressed already.
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|html)$/;
const PUBLIC_DIR = fileURLToPath(new URL('public', import.meta.url));

/** public/'s files, relative to it ("sample/logo.svg"), in a fixed order. */
function publicFiles(): string[] {
  return readdirSync(PUBLIC_DIR, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(PUBLIC_DIR, name)).isFile())
    .sort();
}

/**
 * A hash of public/'s names and contents. Those files keep their names from one release to the
 * next, so pages ask for them with this version beside the name (app/lib/public-files.ts), and
 * the server lets browsers keep what they got under the current version for a year.
 */
function publicFolderVersion(): string {
  const hash = createHash('sha256');
  for (const name of publicFiles()) {
    hash
      .update(`${name}\0`)
      .update(readFileSync(join(PUBLIC_DIR, name)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

/** Writes `path`.br and `path`.gz at the highest levels (they are made once). */
async function compressBeside(path: string, source: string | Uint8Array): Promise<void> {
  await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }).then((data) => writeFile(`${path}.br`, data)),
    gzipped(source, { level: 9 }).then((data) => writeFile(`${path}.gz`, data)),
  ]);
}

/**
 * Writes a .br and a .gz beside every compressible browser file, the build's and public/'s (the
 * sample store's SVG pictures), so the server sends files instead of compressing per request.
 */
function precompress(): Plugin {
  return {
    name: 'vitrine-precompress',
    apply: 'build',
    async writeBundle(output, bundle) {
      const dir = output.dir;
      if (!dir) return;
      await Promise.all([
        ...Object.values(bundle)
          .filter((file) => COMPRESSIBLE.test(file.fileName))
          .map((file) =>
            compressBeside(
              join(dir, file.fileName),
              file.type === 'chunk' ? file.code : file.source,
            ),
          ),
        // Read from public/ itself, whether or not Vite has copied it yet.
        ...publicFiles()
          .filter((name) => COMPRESSIBLE.test(name))
          .map(async (name) => {
            await mkdir(dirname(join(dir, name)), { recursive: true });
            await compressBeside(join(dir, name), await readFile(join(PUBLIC_DIR, name)));
          }),
      ]);
    },
  };
}

/** `import { a, b as c } from '…'`, `import * as n from '…'`, `export { a } from '…'`. */
const STATIC_IMPORT =
  /\b(?:import|export)\s*(?:([\w$]+)\s*,?\s*)?(\*(?:\s*as\s+[\w$]+)?|\{([^}]*)\})?\s*from\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']/g;
/** A domain's index (ADR 005): only re-exports, so what it brings is what its importer names. */
const MODULE_INDEX = /\/app\/modules\/[^/]+\/index\.ts$/;
const ROUTE_MODULE = /\/app\/(?:root\.tsx|routes\/.+\.tsx)$/;
const STORE_LAYOUT = /\/app\/(?:root\.tsx|routes\/store\/layout\.tsx)$/;

interface Import {
  /** The names taken ('default' for a default import), or null for the whole module. */
  names: string[] | null;
  specifier: string;
}

function staticImports(code: string): Import[] {
  return [...code.matchAll(STATIC_IMPORT)].map(([, defaultName, clause, named, from, bare]) => ({
    names:
      bare !== undefined || (clause && !named)
        ? null
        : [
            ...(defaultName ? ['default'] : []),
            ...(named ?? '')
              .split(',')
              .map(
                (part) =>
                  part
                    .trim()
                    .replace(/^type\s+/, '')
                    .split(/\s+as\s+/)[0]!,
              )
              .filter(Boolean),
          ],
    specifier: (from ?? bare)!,
  }));
}

/** The module among `candidates` that `specifier`, written in `importer`, names. */
function resolveIn(importer: string, specifier: string, candidates: string[]): string | undefined {
  let base: string;
  if (specifier.startsWith('~/')) base = `${APP_DIR}${specifier.slice(1)}`;
  else if (specifier.startsWith('.')) base = join(dirname(importer), specifier);
  else return undefined;
  const paths = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => base + ending);
  return candidates.find((candidate) => paths.includes(candidate.replace(/\?.*$/, '')));
}

/**
 * Which of our modules each page needs: what its route module imports, and what that imports,
 * but through a domain's index only the files that define the names it takes (the index
 * re-exports the whole domain, and every page imports some index).
 */
function pageNeeds(routes: string[], info: (id: string) => ModuleInfo | null) {
  const needs = (entry: string) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      const module = info(id);
      if (!module?.code) return;
      for (const { names, specifier } of staticImports(module.code)) {
        const target = resolveIn(id, specifier, module.importedIds);
        if (!target) continue;
        const index = MODULE_INDEX.test(target) && names !== null ? info(target) : null;
        if (!index?.code) {
          visit(target);
          continue;
        }
        for (const exported of staticImports(index.code)) {
          if (exported.names === null || exported.names.some((name) => names!.includes(name))) {
            const source = resolveIn(target, exported.specifier, index.importedIds);
            if (source) visit(source);
          }
        }
      }
    };
    visit(entry);
    seen.delete(entry);
    return seen;
  };
  return new Map(routes.map((route) => [route, needs(route)]));
}

/** Response headers a first visit pays per file (~0.5 KB), in bytes of our untransformed code. */
const FILE_COST = 3000;

/**
 * Our code in as few files as the main storefront pages (home, catalogue, product, cart and
 * checkout: where shoppers land) need. A first visit downloads each file with ~0.5 KB of response
 * headers, about as much as 1.5 KB of our minified code, so a few shared files beat many exact ones.
 *
 * - The root and the store's layout, and what they need, are on every page: one file,
 *   `store-shell` (their own files only re-export from it). The admin loads it too (the root
 *   needs it).
 * - What one main page needs alone stays in its route's file, as the bundler puts it.
 * - Everything else that main pages need starts in one group per set of main pages needing it;
 *   groups (the shell among them) are then merged, the best merge first, while a merge lowers the
 *   largest download of the main pages, or their downloads in all without raising it: a page's download is the bytes of the files it loads, each plus
 *   FILE_COST.
 */
function storefrontChunks() {
  const modules = new Set<string>();
  let assigned: Map<string, string> | undefined;

  const assign = (context: ChunkingContext) => {
    const info = (id: string) => context.getModuleInfo(id);
    const size = (id: string) => info(id)?.code?.length ?? 0;
    const routes = [...modules].filter((id) => ROUTE_MODULE.test(id));
    const needs = pageNeeds(routes, info);
    const usedBy = new Map<string, Set<string>>();
    for (const [route, needed] of needs) {
      for (const id of needed) usedBy.set(id, (usedBy.get(id) ?? new Set()).add(route));
    }
    // The root's and the layout's own code too: their files are then a line of re-exports, and
    // every page's largest file compresses them with the rest.
    const shell = new Set(
      [...needs]
        .filter(([route]) => STORE_LAYOUT.test(route))
        .flatMap(([route, needed]) => [route, ...needed]),
    );

    interface Group {
      modules: string[];
      pages: Set<string>;
      size: number;
    }
    const main = (route: string) => MAIN_PAGES.find((page) => route.endsWith(`/store/${page}.tsx`));
    const sizeOf = (ids: Iterable<string>) => [...ids].reduce((sum, id) => sum + size(id), 0);
    const groups = new Map<string, Group>();
    groups.set('shell', { modules: [...shell], pages: new Set(MAIN_PAGES), size: sizeOf(shell) });
    // Each main page's own file: its route module and what no other page needs.
    const own = new Map(MAIN_PAGES.map((page) => [page, FILE_COST]));
    for (const id of modules) {
      if (shell.has(id)) continue;
      const users = [...(usedBy.get(id) ?? [])];
      const pages = new Set(users.flatMap((route) => main(route) ?? []));
      if (main(id)) own.set(main(id)!, own.get(main(id)!)! + size(id));
      if (pages.size === 1 && users.length === 1) {
        const [page] = pages;
        own.set(page!, own.get(page!)! + size(id));
      }
      // A main page's own module, or no main page's: where the bundler puts it.
      if (ROUTE_MODULE.test(id) || pages.size === 0 || (pages.size === 1 && users.length === 1))
        continue;
      const key = [...pages].join('+');
      const group = groups.get(key) ?? { modules: [], pages, size: 0 };
      group.modules.push(id);
      group.size += size(id);
      groups.set(key, group);
    }
    // The largest main page's download first, then all of theirs together.
    const score = (all: Iterable<Group>) => {
      const downloads = new Map(own);
      for (const group of all) {
        for (const page of group.pages) {
          downloads.set(page, downloads.get(page)! + group.size + FILE_COST);
        }
      }
      const figures = [...downloads.values()];
      return [Math.max(...figures), figures.reduce((sum, figure) => sum + figure, 0)] as const;
    };
    const better = (a: readonly [number, number], b: readonly [number, number]) =>
      a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
    for (;;) {
      let best:
        { a: string; b: string; merged: Group; score: readonly [number, number] } | undefined;
      const current = score(groups.values());
      const keys = [...groups.keys()];
      for (const [i, a] of keys.entries()) {
        for (const b of keys.slice(i + 1)) {
          const ga = groups.get(a)!;
          const gb = groups.get(b)!;
          const merged = {
            modules: [...ga.modules, ...gb.modules],
            pages: new Set([...ga.pages, ...gb.pages]),
            size: ga.size + gb.size,
          };
          const after = score(
            [...groups]
              .filter(([key]) => key !== a && key !== b)
              .map(([, group]) => group)
              .concat(merged),
          );
          if (better(after, best?.score ?? current)) best = { a, b, merged, score: after };
        }
      }
      if (!best) break;
      groups.delete(best.b);
      groups.set(best.a, best.merged);
    }
    assigned = new Map();
    for (const [key, group] of groups) {
      const name = key === 'shell' ? 'store-shell' : `store-${[...group.pages].join('+')}`;
      for (const id of group.modules) assigned.set(id, name);
    }
  };

  return {
    test(id: string) {
      const ours = id.startsWith(APP_DIR) && !id.includes('/node_modules/');
      if (id === PRELOAD_HELPER) return true;
      if (ours) modules.add(id);
      return ours;
    },
    name(id: string, context: ChunkingContext) {
      // Tiny (bareDynamicImports), and the shell has a dynamic import: no file of its own.
      if (id === PRELOAD_HELPER) return 'store-shell';
      if (!assigned) assign(context);
      return assigned!.get(id) ?? null;
    },
  };
}

/**
 * Vite wraps each dynamic import in a helper that preloads the imported file's own imports; with
 * `modulePreload: false` it has nothing left to do but call the import, yet it still weighs ~0.7
 * KB on every storefront page (the shell has a dynamic import, the consent banner's). This one
 * calls the import and nothing else. The lazy parts (the consent banner, 'Avise-me', what the
 * ad tools are told) then fetch their few imports after themselves, the first time one is shown.
 * Vite's also announces a failed preload as a `vite:preloadError` event, which nothing here
 * listens to.
 */
function bareDynamicImports(): Plugin {
  return {
    name: 'vitrine-bare-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    resolveId(id) {
      return id === PRELOAD_HELPER ? id : null;
    },
    load(id) {
      return id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : null;
    },
  };
}

/**
 * Lets a route's file export what the shared files take from it (React Router asks for its
 * entries' exports to be kept as they are): the storefront's groups leave each module where
 * `storefrontChunks` puts it, rather than with the first group that imports it, and the bundler
 * refuses that otherwise.
 */
function entriesMayExportMore(): Plugin {
  return {
    name: 'vitrine-entries-may-export-more',
    apply: 'build',
    options(options) {
      return { ...options, preserveEntrySignatures: 'allow-extension' };
    },
  };
}

/** Vite's helper around each dynamic import (below). */
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const APP_DIR = fileURLToPath(new URL('app', import.meta.url));
/** Each held to a budget of our JavaScript on a first visit (bench/bundle-size.ts). */
const MAIN_PAGES = ['home', 'products', 'product', 'cart', 'checkout'];

/**
 * React, React DOM and React Router in files of their own: they change only with an upgrade, so
 * our deploys leave them in the browser's cache. Other libraries are split by use as the bundler
 * does, so a page gets only the functions it imports.
 */
function libraryChunk(id: string): string | null {
  const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];
  if (name === 'react' || name === 'react-dom' || name === 'react-router') return name;
  if (name === 'scheduler') return 'react-dom';
  if (name === 'cookie' || name === 'set-cookie-parser' || name === 'turbo-stream')
    return 'react-router';
  return null;
}

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, so the app and the server share one module graph
  // (one database handle, one settings cache).
  build: isSsrBuild
    ? { rollupOptions: { input: './server/app.ts' } }
    : {
        // Only for bench/hydration-profile.ts, which names our functions in a CPU profile through
        // them: the same code, with .map files beside it that no page links to.
        sourcemap: process.env.VITRINE_SOURCEMAP === 'hidden' ? 'hidden' : false,
        // See bareDynamicImports.
        modulePreload: false,
        rolldownOptions: {
          output: {
            codeSplitting: {
              // Libraries first; then our modules, each where storefrontChunks puts it (not
              // pulled along into the group of the first module that imports it).
              groups: [
                { name: libraryChunk, priority: 2 },
                { ...storefrontChunks(), priority: 1, includeDependenciesRecursively: false },
              ],
            },
          },
        },
      },
  define: {
    'import.meta.env.VITRINE_PUBLIC_VERSION': JSON.stringify(publicFolderVersion()),
  },
  resolve: { tsconfigPaths: true },
  plugins: [
    tailwindcss(),
    reactRouter(),
    ...(isSsrBuild ? [] : [bareDynamicImports(), entriesMayExportMore(), precompress()]),
  ],
}));
