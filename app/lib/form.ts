import { z } from 'zod';

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

export const FORM_MESSAGES = {
  repeated: 'O formulário veio com um campo repetido. Recarregue a página e tente novamente.',
  invalid: 'Valor inválido.',
} as const;

/**
 * Checks a form's fields against a schema (the same schema the browser uses). Each field is
 * sent once by our forms, so a repeated one is refused rather than silently picking a value;
 * fields named in `repeatable` arrive as arrays.
 */
export function parseFormData<Schema extends z.ZodType>(
  form: FormData,
  schema: Schema,
  options: { repeatable?: readonly string[] } = {},
): FormResult<z.output<Schema>> {
  const repeatable = new Set(options.repeatable);
  const fields: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const [key, value] of form) {
    // No form of ours sends a NUL, and PostgreSQL refuses one in text: junk, said as such.
    if (typeof value === 'string' && value.includes('\0')) {
      return { ok: false, error: FORM_MESSAGES.invalid, fieldErrors: {}, values: {} };
    }
    if (repeatable.has(key)) {
      ((fields[key] ??= []) as FormDataEntryValue[]).push(value);
    } else if (key in fields) {
      return { ok: false, error: FORM_MESSAGES.repeated, fieldErrors: {}, values: {} };
    } else {
      fields[key] = value;
    }
  }
  // Messages the schema does not set itself (a file where text was expected, say) stay pt-BR.
  const parsed = schema.safeParse(fields, { error: () => FORM_MESSAGES.invalid });
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? '');
    if (name && !(name in fieldErrors)) fieldErrors[name] = issue.message;
  }
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') values[key] = value.slice(0, MAX_ECHOED_LENGTH);
  }
  return { ok: false, error: parsed.error.issues[0]!.message, fieldErrors, values };
}

// Longer than any field of ours allows; a bigger value is junk not worth sending back.
const MAX_ECHOED_LENGTH = 500;

/**
 * A path on this site to send the browser back to. Printable ASCII only (browsers send paths
 * and queries percent-encoded), and never "//host" or "/\host", which browsers read as another site.
 */
export const sitePath = z
  .string()
  .max(2000)
  .regex(/^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/);
