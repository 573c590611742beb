import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/**
 * Writes a .br and a .gz beside every compressible browser file, at the highest levels (they
 * are made once), so the server sends files instead of compressing per request.
 */
function precompress(): Plugin {
  return {
    name: 'vitrine-precompress',
    apply: 'build',
    async writeBundle(output, bundle) {
      const dir = output.dir;
      if (!dir) return;
      await Promise.all(
        Object.values(bundle)
          .filter((file) => COMPRESSIBLE.test(file.fileName))
          .map(async (file) => {
            const source = file.type === 'chunk' ? file.code : file.source;
            const path = join(dir, file.fileName);
            await Promise.all([
              brotli(source, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                },
              }).then((data) => writeFile(`${path}.br`, data)),
              gzipped(source, { level: 9 }).then((data) => writeFile(`${path}.gz`, data)),
            ]);
          }),
      );
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
  const inShell = new Map<string, boolean>();
  // Ours, and imported by the layout or by something in the shell: walked up through importers.
  const check = (id: string, context: ChunkingContext, seen: Set<string>): boolean => {
    const known = inShell.get(id);
    if (known !== undefined) return known;
    if (!id.includes('/app/') || id.includes('/node_modules/') || id.includes('/app/routes/'))
      return false;
    seen.add(id);
    const importers = context.getModuleInfo(id)?.importers ?? [];
    const result = importers.some(
      (importer) =>
        STORE_LAYOUT.test(importer) || (!seen.has(importer) && check(importer, context, seen)),
    );
    inShell.set(id, result);
    return result;
  };
  return (id, context) => (check(id, context, new Set()) ? 'store-shell' : null);
}

/**
 * A file per library, React DOM apart from the entry that starts it: the browser then evaluates
 * React DOM and the hydrating entry in separate tasks (the deferred loader runs one module a task).
 */
function libraryChunk(id: string): string | null {
  const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];
  if (!name) return null;
  if (name === 'scheduler') return 'react-dom';
  if (['cookie', 'set-cookie-parser', 'turbo-stream'].includes(name)) return 'react-router';
  return name.replace(/^@/, '').replace('/', '-');
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
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [precompress()])],
}));
