import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
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

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, so the app and the server share one module graph
  // (one database handle, one settings cache).
  build: isSsrBuild ? { rollupOptions: { input: './server/app.ts' } } : undefined,
  define: {
    'import.meta.env.VITRINE_PUBLIC_VERSION': JSON.stringify(publicFolderVersion()),
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [precompress()])],
}));
