import type { z } from 'zod/mini';

import { parseFormData, type ParseFormOptions } from './form';
import { useCheck } from './use-check';

/**
 * The browser half of the one form pattern, admin and storefront alike: checks the form against
 * the schema the server uses before it is sent (see useCheck).
 */
export function useFormCheck(
  schema: z.core.$ZodType,
  options: Pick<ParseFormOptions, 'repeatable'> = {},
) {
  return useCheck((form) => parseFormData(form, schema, options));
}
