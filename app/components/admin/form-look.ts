import type { FormLook } from '~/components/ui/form';

/** How the admin draws the forms kit's fields and summaries. */
export const ADMIN_FORM: FormLook = {
  label: 'admin-label',
  checkLabel: 'text-sm font-medium text-slate-800',
  hint: 'mt-1 text-xs text-slate-600',
  hintAbove: 'mb-1 text-xs text-slate-600',
  error: 'mt-1 text-sm text-red-700',
  summary: 'rounded-md bg-red-50 px-3 py-2 text-sm text-red-800',
  summaryLinks: 'mt-2 list-disc pl-5 underline',
};
