import { data } from 'react-router';
import type { z } from 'zod';

import { parseFormData, type FormResult } from './form';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * Reads and checks a submitted form. Anything that is not a readable form (JSON, plain text, no
 * body, a broken multipart) is a failure with a pt-BR message, never an exception: the action
 * answers it with a 400.
 */
export async function parseForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  options?: { repeatable?: readonly string[] },
): Promise<FormResult<z.output<Schema>>> {
  const type = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.includes(type)) {
    return failure('Envie os dados pelo formulário da loja.');
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return failure('Não foi possível ler o formulário. Recarregue a página e tente novamente.');
  }
  return parseFormData(form, schema, options);
}

function failure(error: string): FormResult<never> {
  return { ok: false, error, fieldErrors: {}, values: {} };
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
