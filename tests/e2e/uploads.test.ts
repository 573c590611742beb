import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { adminVisitor, withAdmin } from '../support/admin';
import { blackPng } from '../support/images';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { visibleText, type Visitor } from '../support/visitor';

const KEYBOARD = sampleProduct('Teclado Mecânico');
const MAX_UPLOAD_BYTES = 3 * 1024 * 1024;
const BOUNDARY = '----vitrine-test-boundary';

/** The fields of a valid product form, as multipart parts (without the closing boundary). */
function fieldParts(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
}

const productFields = () => ({
  id: randomUUID(),
  name: 'Produto com Foto',
  description: 'Enviado pelo teste.',
  price: '10,00',
  stockQuantity: '1',
  categoryId: KEYBOARD.categoryId!,
  imageUrls: '',
});

const fileHead = (name: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="uploads"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;

describe('admin uploads', () => {
  let server: TestServer;
  let uploadTmp = '';
  let admin: Visitor;

  beforeAll(async () => {
    uploadTmp = await mkdtemp(join(tmpdir(), 'vitrine-uploads-test-'));
    server = await startServer({
      prepare: withAdmin(),
      env: { TMPDIR: uploadTmp, MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) },
    });
    admin = await adminVisitor(server.url);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(uploadTmp, { recursive: true, force: true });
  });

  /** The request folders the server holds in its TMPDIR now. */
  const uploadFolders = async () =>
    (await readdir(uploadTmp)).filter((name) => name.startsWith('vitrine-upload-'));

  /** A request sent by hand, so the test decides when each piece of the body goes. */
  function openUpload(headers: Record<string, string> = {}, path = '/admin/products/new') {
    const url = new URL(path, server.url);
    let request!: ClientRequest;
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            Cookie: admin.cookieHeader(),
            'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
            ...headers,
          },
        },
        (response: IncomingMessage) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, text }));
        },
      );
      request.on('error', reject);
    });
    return { request, answer };
  }

  it('refuses a 10 × 9,999,999 PNG from its header with a pt-BR message and a 400', async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(productFields())) form.append(name, value);
    form.append('uploads', new File([blackPng(10, 9_999_999)], 'fita.png', { type: 'image/png' }));
    const answer = await admin.request('/admin/products/new', { method: 'POST', body: form });
    expect(answer.status).toBe(400);
    expect(visibleText(answer.text)).toContain(
      'A imagem "fita.png" tem 10 × 9.999.999 px: cada lado pode ter no máximo 10.000 px.',
    );
    expect(await uploadFolders()).toEqual([]);
  });

  it('answers a form it refused early once its body has arrived, whole, on a closing connection', async () => {
    const { request, answer } = openUpload({ Connection: 'close' }, '/admin/settings');
    // Far more parts than the settings form has: the form is refused from the first chunk on.
    const parts = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, '']));
    request.write(fieldParts(parts));
    const early = await Promise.race([
      answer.then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 1_000)),
    ]);
    // Answering now would close the connection on bytes still arriving, and the reset could
    // destroy the answer before the client read it.
    expect(early).toBe('waiting');
    request.end(Buffer.concat([Buffer.alloc(200_000), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
    const { status, text } = await answer;
    expect(status).toBe(400);
    expect(visibleText(text).length).toBeGreaterThan(0);
  });

  it('keeps an upload in a temporary file only while its request runs', async () => {
    const photo = blackPng(600, 400);
    const { request, answer } = openUpload();
    request.write(fieldParts(productFields()));
    request.write(fileHead('foto.png'));
    request.write(photo.subarray(0, 100));
    // The first bytes are on disk before the body has ended: nothing waits in memory for it.
    await until(async () => ((await uploadFolders()).length === 1 ? true : undefined), 'a folder');
    const [folder] = await uploadFolders();
    await until(
      async () => ((await readdir(join(uploadTmp, folder!))).length === 1 ? true : undefined),
      'the file',
    );
    request.end(Buffer.concat([photo.subarray(100), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
    expect((await answer).status).toBe(303);
    expect(await uploadFolders()).toEqual([]);
  });

  it('removes the temporary files of a client that went away mid-upload', async () => {
    const { request, answer } = openUpload();
    answer.catch(() => {});
    request.write(fieldParts(productFields()));
    request.write(fileHead('metade.png'));
    request.write(Buffer.alloc(200_000));
    await until(async () => ((await uploadFolders()).length === 1 ? true : undefined), 'a folder');
    request.destroy();
    await until(async () => ((await uploadFolders()).length === 0 ? true : undefined), 'no folder');
    // The server is fine.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('answers 413 to a body over MAX_UPLOAD_BYTES, said in advance or not', async () => {
    const body = Buffer.concat([
      Buffer.from(fieldParts(productFields()) + fileHead('grande.png')),
      Buffer.alloc(MAX_UPLOAD_BYTES),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const declared = openUpload({ 'Content-Length': String(body.length) });
    declared.request.end(body);
    const refused = await declared.answer;
    expect(refused.status).toBe(413);
    expect(refused.text).toContain('O envio é grande demais.');

    // Chunked, its size unknown until it has passed the limit.
    const chunked = openUpload({ 'Transfer-Encoding': 'chunked' });
    chunked.request.end(body);
    const cut = await chunked.answer;
    expect(cut.status).toBe(413);
    expect(cut.text).toContain('O envio é grande demais.');
    expect(await uploadFolders()).toEqual([]);
  });
});
