import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import type { ChunkingContext } from 'rolldown';
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

/**
 * Our code that every storefront page runs (what the store's layout imports, and what that
 * imports) in one file, `store-shell`: split by module, a first visit fetched some twenty files of
 * one or two kilobytes, each paying its own headers and compressing worse (ADR 023). The
 * libraries keep their own files, which outlive our deploys in the browser's cache.
 */
function storeShellChunk(): (id: string, context: ChunkingContext) => string | null {
  // Each module's answer, once a whole walk has given it. A walk cut short where it met a module
  // it was already in (an import cycle) proves nothing about the modules on the way, so only the
  // answer for the module asked about is kept.
  const inShell = new Map<string, boolean>();
  // Ours, and imported by the layout or by something in the shell: walked up through importers.
  const reaches = (id: string, context: ChunkingContext, seen: Set<string>): boolean => {
    const known = inShell.get(id);
    if (known !== undefined) return known;
    if (!id.includes('/app/') || id.includes('/node_modules/') || id.includes('/app/routes/'))
      return false;
    seen.add(id);
    return (context.getModuleInfo(id)?.importers ?? []).some(
      (importer) =>
        STORE_LAYOUT.test(importer) || (!seen.has(importer) && reaches(importer, context, seen)),
    );
  };
  return (id, context) => {
    let result = inShell.get(id);
    if (result === undefined) {
      result = reaches(id, context, new Set());
      inShell.set(id, result);
    }
    return result ? 'store-shell' : null;
  };
}

/**
 * React, React DOM and React Router in files of their own: they change only with an upgrade, so
 * our deploys leave them in the browser's cache, and the shell's group (which takes what its
 * modules import) leaves them out. Other libraries are split by use as the bundler does, so a
 * page gets only the functions it imports (the product page's CEP mask, not the checkout's).
 */
function libraryChunk(id: string): string | null {
  const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];
  if (name === 'react' || name === 'react-dom' || name === 'react-router') return name;
  if (name === 'scheduler') return 'react-dom';
  if (name === 'cookie' || name === 'set-cookie-parser' || name === 'turbo-stream')
    return 'react-router';
  return null;
}

const STORE_LAYOUT = /\/app\/routes\/store\/layout\.tsx(?:\?.*)?$/;

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, so the app and the server share one module graph
  // (one database handle, one settings cache).
  build: isSsrBuild
    ? { rollupOptions: { input: './server/app.ts' } }
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              // Libraries first, so the shell's group (which takes what its modules import) finds
              // them taken.
              groups: [
                { name: libraryChunk, priority: 2 },
                { name: storeShellChunk(), priority: 1 },
              ],
            },
          },
        },
      },
  define: {
    'import.meta.env.VITRINE_PUBLIC_VERSION': JSON.stringify(publicFolderVersion()),
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [precompress()])],
}));
