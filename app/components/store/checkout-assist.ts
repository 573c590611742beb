// What the checkout form runs once the shopper starts on it, fetched then (ADR 042): the schema
// the server reads the form with (zod's core and the CPF and phone checks, most of the page's
// JavaScript otherwise) and the CPF's and phone's masks. Until it arrives the fields take what is
// typed as it is, and a submission waits for it.
import { parseFormData } from '~/lib/form';
import { checkoutFormSchema, maskCpf, maskPhone } from '~/modules/checkout';

export const parseCheckout = (form: FormData) => parseFormData(form, checkoutFormSchema);

/** The masks by field name. */
export const MASKS: Partial<Record<string, (value: string) => string>> = {
  customerCpf: maskCpf,
  customerPhone: maskPhone,
};
