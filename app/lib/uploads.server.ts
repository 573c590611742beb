import { createWriteStream, openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

import Busboy from '@fastify/busboy';

/** An uploaded file kept on disk for the rest of its request: `path` is where it lies. */
export class UploadedFile extends File {
  readonly path: string;

  constructor(blob: Blob, name: string, type: string, path: string) {
    super([blob], name, { type });
    this.path = path;
  }
}

/** What a form with files may hold; files go to `folder()`, made when the first one arrives. */
export interface UploadLimits {
  folder: () => Promise<string>;
  /** The largest file. One byte more is kept, so the form's own check names the file. */
  maxFileBytes: number;
  /** Most files. One more is kept, so the form's own check says how many are allowed. */
  maxFiles: number;
  /** Most text fields, for a form with more than MAX_FIELDS (the settings: one per setting). */
  maxFields?: number;
}

// Our forms have a dozen fields, each well under this; more is not a form of ours.
const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 256 * 1024;

class FormLimitError extends Error {}

/**
 * Reads a multipart body as it arrives, each file streamed to its own file in `limits.folder()`
 * (never held in memory), the text fields as strings. The files stay until the request's folder
 * is removed, after the answer (see `uploadFolder` in the load context). Rejects on a malformed
 * body, too many or too long fields, or a body that stopped coming (the client left, or it
 * passed the size limit); nothing is still being written once it has rejected.
 */
export async function readMultipartForm(request: Request, limits: UploadLimits): Promise<FormData> {
  if (!request.body) throw new FormLimitError('No body');
  const maxFields = limits.maxFields ?? MAX_FIELDS;
  const busboy = new Busboy({
    headers: { 'content-type': request.headers.get('Content-Type') ?? '' },
    limits: {
      fields: maxFields,
      fieldSize: MAX_FIELD_BYTES,
      files: limits.maxFiles + 1,
      fileSize: limits.maxFileBytes + 1,
      parts: maxFields + limits.maxFiles + 1,
    },
  });
  const entries: [string, Promise<string | File>][] = [];
  const files: Readable[] = [];
  busboy.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (busboy.destroyed) return;
    if (valueTruncated) busboy.destroy(new FormLimitError('Field too long'));
    else entries.push([name, Promise.resolve(value)]);
  });
  busboy.on('file', (name, stream, filename, _encoding, mimeType) => {
    // A limit broke the form off, but the parser still hands out the part it had in hand: that
    // file would never end (nothing feeds it), and the form would wait for it forever.
    if (busboy.destroyed) {
      stream.destroy();
      return;
    }
    files.push(stream);
    const number = files.length;
    const saved = (async () => {
      const path = join(await limits.folder(), String(number));
      // Past the limit the parser drops the rest of the file: what is kept is one byte too long.
      await pipeline(stream, createWriteStream(path, { flags: 'wx' }));
      return new UploadedFile(await openAsBlob(path), filename, mimeType, path);
    })();
    // Awaited when the form is put together; a failure before then must not go unhandled.
    saved.catch(() => {});
    entries.push([name, saved]);
  });
  for (const limit of ['fieldsLimit', 'partsLimit'] as const) {
    busboy.on(limit, () => busboy.destroy(new FormLimitError(limit)));
  }
  try {
    await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), busboy);
  } catch (error) {
    for (const file of files) file.destroy();
    await Promise.allSettled(entries.map(([, value]) => value));
    throw error;
  }
  const form = new FormData();
  // Without a file name FormData keeps the UploadedFile itself (with one, it makes a new File).
  for (const [name, value] of entries) form.append(name, await value);
  return form;
}
