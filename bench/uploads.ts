// npx tsx bench/uploads.ts — what an admin's upload costs the server, in time and memory.
//
// Starts the production server (`node server/main.js` from VITRINE_BUILD_DIR, default
// build-bench, built first if missing or stale) on a fresh embedded database with the sample
// store and an admin, signs in through the login form, and posts to /admin/products/new, one at a
// time: a small photo (the reference, ROUNDS times), a 10 × 9,999,999 PNG (a decompression bomb
// of about 100 KB, ROUNDS times), then ten 12-megapixel JPEGs of 7.6 MB (a 76 MiB body), once
// with a wrong price (the whole body is read, then refused: the cost of the body alone) and once
// saved (converted to WebP and stored in the database). For each it prints the answer's
// status and time, and the server's resident memory (VmRSS in /proc/<pid>/status) before and
// after, and at its peak during the request (VmHWM, reset first through /proc/<pid>/clear_refs
// where the kernel lets us). Linux only.
//
// Environment: ROUNDS (default 5), VITRINE_BUILD_DIR.
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';

import sharp from 'sharp';

import { adminVisitor, withAdmin } from '../tests/support/admin';
import { blackPng } from '../tests/support/images';
import { sampleProduct } from '../tests/support/sample';
import { prepareStoreFolder } from '../tests/support/store';
import type { Visitor } from '../tests/support/visitor';

import { positiveInteger } from './options';
import { ensureBuilt, percentile, printTable, startServer } from './support';

const ROUNDS = positiveInteger('ROUNDS', 5);

async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/** Resets the peak (VmHWM) to the current RSS; false where the kernel does not allow it. */
async function resetPeak(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * A 4000 × 3000 JPEG a phone could have taken (smooth colours under grain), about 7.6 MB;
 * `seed` makes each one different, so none is stored as a copy of another.
 */
async function photo(
  seed: number,
  width = 4_000,
  height = 3_000,
): Promise<Uint8Array<ArrayBuffer>> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const grain = (state >>> 24) & 63;
      const index = (y * width + x) * 3;
      pixels[index] = ((x * 255) / width + grain) & 255;
      pixels[index + 1] = ((y * 255) / height + grain) & 255;
      pixels[index + 2] = ((x + y) & 255) ^ grain;
    }
  }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  return new Uint8Array(jpeg);
}

type Upload = { name: string; bytes: Uint8Array<ArrayBuffer>; type: string };

function productForm(files: Upload[], fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    id: randomUUID(),
    name: 'Produto do Teste de Envio',
    description: 'Fotos enviadas pelo bench.',
    price: '99,90',
    stockQuantity: '3',
    categoryId: sampleProduct('Teclado Mecânico').categoryId!,
    imageUrls: '',
    ...fields,
  })) {
    form.append(name, value);
  }
  for (const file of files) {
    form.append('uploads', new File([file.bytes], file.name, { type: file.type }));
  }
  return form;
}

interface Measure {
  status: number;
  ms: number;
  rssDelta: number;
  peakDelta: number;
  body: number;
}

async function measure(
  admin: Visitor,
  pid: number,
  files: Upload[],
  fields: Record<string, string> = {},
): Promise<Measure> {
  const form = productForm(files, fields);
  // The body is encoded before the clock starts, so the figures are the server's.
  const encoded = new Response(form);
  const type = encoded.headers.get('content-type')!;
  const body = new Uint8Array(await encoded.arrayBuffer());
  const peakReset = await resetPeak(pid);
  const before = await memory(pid);
  const started = performance.now();
  const answer = await admin.request('/admin/products/new', {
    method: 'POST',
    headers: { 'Content-Type': type },
    body,
  });
  const ms = performance.now() - started;
  const after = await memory(pid);
  return {
    status: answer.status,
    ms,
    rssDelta: after.rss - before.rss,
    peakDelta: peakReset ? after.peak - before.rss : Number.NaN,
    body: body.byteLength,
  };
}

const mb = (bytes: number) => (Number.isNaN(bytes) ? 'n/a' : (bytes / 1_048_576).toFixed(1));

async function main() {
  await ensureBuilt();
  const dataDir = await prepareStoreFolder({}, withAdmin());
  const server = await startServer({ DATA_DIR: dataDir, SEED: 'false' });
  try {
    const admin = await adminVisitor(server.url);
    const png = (name: string, bytes: Uint8Array<ArrayBuffer>) => ({
      name,
      bytes,
      type: 'image/png',
    });
    const jpeg = (name: string, bytes: Uint8Array<ArrayBuffer>) => ({
      name,
      bytes,
      type: 'image/jpeg',
    });
    const small = jpeg('pequena.jpg', await photo(1, 400, 300));
    const bomb = png('bomba.png', blackPng(10, 9_999_999));
    const photos: Upload[] = [];
    for (let index = 0; index < 10; index += 1) {
      photos.push(jpeg(`foto-${index + 1}.jpg`, await photo(index + 2)));
    }
    // Warm up: the route's code, sharp and the database's first writes.
    for (let round = 0; round < 3; round += 1) {
      await measure(admin, server.pid, [jpeg('aquecer.jpg', await photo(100 + round, 400, 300))]);
    }
    const reference: Measure[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      reference.push(await measure(admin, server.pid, [small]));
    }
    const bombs: Measure[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      bombs.push(await measure(admin, server.pid, [bomb]));
    }
    // The whole body is read (the files streamed to disk) before the price is found wrong.
    const refused = await measure(admin, server.pid, photos, { price: 'dez reais' });
    const saved = await measure(admin, server.pid, photos);
    const median = (values: Measure[], pick: (value: Measure) => number) =>
      percentile(values.map(pick), 50);
    const row = (label: string, values: Measure[]) => [
      label,
      values.map((value) => value.status).join(' '),
      mb(values[0]!.body),
      median(values, (value) => value.ms).toFixed(0),
      (median(values, (value) => value.ms) / median(reference, (value) => value.ms)).toFixed(2),
      mb(median(values, (value) => value.rssDelta)),
      mb(median(values, (value) => value.peakDelta)),
    ];
    console.log(`\nServer pid ${server.pid}; median of ${ROUNDS} where several.\n`);
    printTable(
      [
        'Upload',
        'Status',
        'Body (MiB)',
        'Time (ms)',
        '÷ reference',
        '+RSS after (MiB)',
        '+peak RSS (MiB)',
      ],
      [
        row('reference: one 400 × 300 photo, saved', reference),
        row('10 × 9,999,999 PNG, refused', bombs),
        row('ten 7.6 MB photos, form refused', [refused]),
        row('ten 7.6 MB photos, saved', [saved]),
      ],
      1,
    );
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
