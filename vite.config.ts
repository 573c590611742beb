import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
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

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, so the app and the server share one module graph
  // (one database handle, one settings cache).
  build: isSsrBuild ? { rollupOptions: { input: './server/app.ts' } } : undefined,
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [precompress()])],
}));
