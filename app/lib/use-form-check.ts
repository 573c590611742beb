import { useState } from 'react';
import type { z } from 'zod/mini';

import { parseFormData, type ParseFormOptions } from './form';

/**
 * The browser half of the one form pattern, admin and storefront alike: checks the form against
 * the schema the server uses before it is sent; on a problem, keeps it here, shows the messages
 * and focuses the first field. `errors` is null until a check fails; `check` also returns what
 * it found, for a form that does more on a refusal (open the tab holding the field, say).
 */
export function useFormCheck(
  schema: z.core.$ZodType,
  options: Pick<ParseFormOptions, 'repeatable'> = {},
) {
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  const check = (event: React.FormEvent<HTMLFormElement>): Record<string, string> | null => {
    const parsed = parseFormData(new FormData(event.currentTarget), schema, options);
    if (parsed.ok) {
      setErrors(null);
      return null;
    }
    event.preventDefault();
    setErrors(parsed.fieldErrors);
    const first = Object.keys(parsed.fieldErrors)[0];
    if (first) (event.currentTarget.elements.namedItem(first) as HTMLElement | null)?.focus();
    return parsed.fieldErrors;
  };
  return { errors, setErrors, check };
}
