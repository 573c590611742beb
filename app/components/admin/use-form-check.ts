import { useState } from 'react';
import type { z } from 'zod';

import { parseFormData } from '~/lib/form';

/**
 * The browser half of the one form pattern for admin forms: checks the form against the schema
 * the server uses before it is sent; on a problem, keeps it here, shows the messages and focuses
 * the first field. `errors` is null until a check fails.
 */
export function useFormCheck(schema: z.ZodType) {
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  const check = (event: React.FormEvent<HTMLFormElement>) => {
    const parsed = parseFormData(new FormData(event.currentTarget), schema);
    if (parsed.ok) {
      setErrors(null);
      return;
    }
    event.preventDefault();
    setErrors(parsed.fieldErrors);
    const first = Object.keys(parsed.fieldErrors)[0];
    if (first) (event.currentTarget.elements.namedItem(first) as HTMLElement | null)?.focus();
  };
  return { errors, setErrors, check };
}
