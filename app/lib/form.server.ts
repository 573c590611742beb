import { data } from 'react-router';
import type { z } from 'zod/mini';

import { parseFormData, type FormResult, type ParseFormOptions } from './form';
import { readMultipartForm, type UploadLimits } from './uploads.server';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

const READ_FORM_MESSAGES = {
  notAForm: 'Envie os dados pelo formulário da loja.',
  unreadable: 'Não foi possível ler o formulário. Recarregue a página e tente novamente.',
} as const;

/**
 * The submitted form, or a pt-BR message when the request holds none that can be read (JSON,
 * plain text, no body, a broken multipart): never an exception. With `files`, a multipart body
 * is read as it arrives and its files streamed to disk (see readMultipartForm); without, the
 * body is small (MAX_BODY_BYTES) and read whole.
 */
export async function readForm(
  request: Request,
  files?: UploadLimits,
): Promise<{ ok: true; form: FormData } | { ok: false; error: string }> {
  const type = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.includes(type)) return { ok: false, error: READ_FORM_MESSAGES.notAForm };
  try {
    if (files && type === 'multipart/form-data') {
      return { ok: true, form: await readMultipartForm(request, files) };
    }
    return { ok: true, form: await request.formData() };
  } catch {
    return { ok: false, error: READ_FORM_MESSAGES.unreadable };
  }
}

/**
 * Reads and checks a submitted form. Anything that is not a readable form is a failure with a
 * pt-BR message, never an exception: the action answers it with a 400.
 */
export async function parseForm<Schema extends z.core.$ZodType>(
  request: Request,
  schema: Schema,
  options?: ParseFormOptions & { files?: UploadLimits },
): Promise<FormResult<z.output<Schema>>> {
  const read = await readForm(request, options?.files);
  if (!read.ok) return { ok: false, error: read.error, fieldErrors: {}, values: {} };
  return parseFormData(read.form, schema, options);
}

/** A form posted without JavaScript navigates: it gets a page back, not a fetcher's data. */
export function isDocumentRequest(request: Request): boolean {
  return request.headers.get('Sec-Fetch-Dest') === 'document';
}

/**
 * Our forms only ever POST. React Router hands PUT, PATCH and DELETE to the same action, so an
 * action refuses them first with this (null when the method is POST).
 */
export function refuseOtherMethods(request: Request) {
  return request.method === 'POST' ? null : methodNotAllowed('GET, HEAD, POST');
}

export function methodNotAllowed(allow: string) {
  const message = 'Método não permitido.';
  return data({ ok: false, error: message, message }, { status: 405, headers: { Allow: allow } });
}
