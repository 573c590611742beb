import { useState } from 'react';

import type { FormResult } from './form';

/**
 * Reads a submitted form's fields: parseFormData with a schema (use-form-check.ts). Null when it
 * cannot here (its code still on its way, ADR 042): the form goes to the server, which checks it
 * the same.
 */
export type FormParser = (form: FormData) => FormResult<unknown> | null;

/**
 * The browser half of the one form pattern with the reader given (useFormCheck gives it the
 * schema's): before the form is sent, checks it; on a problem, keeps it here, shows the messages
 * and focuses the first field. `errors` is null until a check fails; `check` also returns what it
 * found, for a form that does more on a refusal (open the tab holding the field, say).
 */
export function useCheck(parse: FormParser) {
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  const check = (event: React.FormEvent<HTMLFormElement>): Record<string, string> | null => {
    const parsed = parse(new FormData(event.currentTarget));
    if (!parsed || parsed.ok) {
      setErrors(null);
      return null;
    }
    event.preventDefault();
    setErrors(parsed.fieldErrors);
    const first = Object.keys(parsed.fieldErrors)[0];
    const named = first ? event.currentTarget.elements.namedItem(first) : null;
    // A group of checkboxes or radio buttons sharing the name: its first one.
    const field = named instanceof RadioNodeList ? named[0] : named;
    (field as HTMLElement | null | undefined)?.focus();
    return parsed.fieldErrors;
  };
  return { errors, setErrors, check };
}
