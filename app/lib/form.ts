// zod/mini, not the classic API: the checkout's schema reaches every shopper's browser, and mini's
// functions tree-shake to the checks a schema uses (classic ships whole). Classic schemas
// (admin, server) compose these and are read by parseFormData all the same.
import { z } from 'zod/mini';

import type { Toast } from './toast';

/** What reading a form gives: the checked values, or pt-BR messages to show beside the fields. */
export type FormResult<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      /** The first problem, for a form that shows one message. */
      error: string;
      /** The first problem of each field, by field name. */
      fieldErrors: Record<string, string>;
      /** The text fields as sent, to fill the form again when it is shown without JavaScript. */
      values: Record<string, string>;
    };

/**
 * What every form's action answers when it does not redirect, admin and storefront alike (built
 * by refuseForm and successWithToast in toast.server.ts): `toast` says what happened, a refusal
 * adds each field's message and the values to show again, and `Success` / `Refusal` what else
 * the form needs back.
 */
export type FormReply<Success extends object = object, Refusal extends object = object> =
  | ({ ok: true; toast: Toast } & Success)
  | ({
      ok: false;
      toast: Toast;
      fieldErrors: Record<string, string>;
      values: Record<string, string>;
    } & Refusal);

export const FORM_MESSAGES = {
  repeated: 'O formulário veio com um campo repetido. Recarregue a página e tente novamente.',
  invalid: 'Valor inválido.',
} as const;

/** How a form is read: see parseFormData. */
export interface ParseFormOptions {
  /** Fields that may be sent more than once; they arrive as arrays. */
  repeatable?: readonly string[];
  /** The longest value sent back in `values` (MAX_ECHOED_LENGTH unless set). */
  maxEchoedLength?: number;
}

// Field helpers shared by the storefront's checkout and the admin's forms. The checkout ships
// them to every shopper: keep them this small.

export const tooLong = (max: number) => `Use no máximo ${max} caracteres.`;

/**
 * A text field's message when it is no text: missing means "fill it in", while something that
 * is not text at all (a file posted by hand) is junk and said as such. For a classic zod schema,
 * `z.string({ error: textError(required) })`.
 */
export const textError =
  (required: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? required : FORM_MESSAGES.invalid;

/** A text field (see textError), checked with zod/mini's `.check(…)`. */
export const text = (required: string) => z.string({ error: textError(required) });

/**
 * An id from a form: a uuid, in lower case as PostgreSQL writes one, so that every comparison in
 * code (is this me? was it chosen twice?) sees the database's spelling.
 */
export const uuidField = (error: string) =>
  z.pipe(
    z.uuid({ error }),
    z.transform((id: string) => id.toLowerCase()),
  );

// Pasted or autofilled values may carry tabs and line breaks, and names and addresses show on
// one line (pills, selects, labels, e-mails).
export const singleLine = (value: string) => value.replace(/\s+/g, ' ').trim();

/**
 * Checks a form's fields against a schema (the same schema the browser uses). Each field is
 * sent once by our forms, so a repeated one is refused rather than silently picking a value;
 * fields named in `repeatable` arrive as arrays.
 */
export function parseFormData<Schema extends z.core.$ZodType>(
  form: FormData,
  schema: Schema,
  options: ParseFormOptions = {},
): FormResult<z.output<Schema>> {
  const repeatable = new Set(options.repeatable);
  // No prototype: a field named 'constructor' or '__proto__' is a field like any other.
  const fields: Record<string, FormDataEntryValue | FormDataEntryValue[]> = Object.create(null);
  for (const [key, entry] of form) {
    // No form of ours sends a NUL, and PostgreSQL refuses one in text: junk, said as such.
    if (typeof entry === 'string' && entry.includes('\0')) {
      return { ok: false, error: FORM_MESSAGES.invalid, fieldErrors: {}, values: {} };
    }
    // Other control characters (pasted from a document, or sent by hand) never reach the
    // database: tabs and line breaks are text, the rest is dropped.
    const value = typeof entry === 'string' ? entry.replace(CONTROL_CHARACTERS, '') : entry;
    if (repeatable.has(key)) {
      ((fields[key] ??= []) as FormDataEntryValue[]).push(value);
    } else if (key in fields) {
      return { ok: false, error: FORM_MESSAGES.repeated, fieldErrors: {}, values: {} };
    } else {
      fields[key] = value;
    }
  }
  // Messages the schema does not set itself (a file where text was expected, say) stay pt-BR.
  const parsed = z.safeParse(schema, fields, { error: () => FORM_MESSAGES.invalid });
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? '');
    if (name && !(name in fieldErrors)) fieldErrors[name] = issue.message;
  }
  const maxEchoed = options.maxEchoedLength ?? MAX_ECHOED_LENGTH;
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') values[key] = value.slice(0, maxEchoed);
  }
  return { ok: false, error: parsed.error.issues[0]!.message, fieldErrors, values };
}

// C0 but tab, line feed and carriage return; DEL; C1.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

// Longer than most fields of ours allow; a bigger value is junk not worth sending back (a form
// with longer texts sets its own maxEchoedLength).
const MAX_ECHOED_LENGTH = 500;

/**
 * A path on this site to send the browser back to. Printable ASCII only (browsers send paths
 * and queries percent-encoded), and never "//host" or "/\host", which browsers read as another site.
 */
export const sitePath = z
  .string()
  .check(z.maxLength(2000), z.regex(/^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/));
