// What the checkout form runs once the shopper starts on it, fetched then (ADR 042): the schema
// the server reads the form with (zod's core and the CPF and phone checks, most of the page's
// JavaScript otherwise), the CPF's and phone's masks, and the contact kept as typed. Until it
// arrives the fields take what is typed as it is, and a submission waits for it.
import { parseFormData } from '~/lib/form';
import { checkoutFormSchema, maskCpf, maskPhone } from '~/modules/checkout';
import { CHECKOUT_CONTACT_PATH, RECOVERY_OPT_OUT_FIELD } from '~/modules/recovery';

export const parseCheckout = (form: FormData) => parseFormData(form, checkoutFormSchema);

/** The masks by field name. */
export const MASKS: Partial<Record<string, (value: string) => string>> = {
  customerCpf: maskCpf,
  customerPhone: maskPhone,
};

const CONTACT_FIELDS = ['customerEmail', 'customerName', 'customerPhone', RECOVERY_OPT_OUT_FIELD];

/**
 * A contact field left (its change event) while the e-mail field holds a plausible address: the
 * contact is sent to be kept with the cart (abandoned checkouts). The server checks the address
 * and the page needs nothing of the answer.
 */
export function saveContact(form: HTMLFormElement, target: EventTarget | null): void {
  if (!CONTACT_FIELDS.includes((target as HTMLInputElement | null)?.name ?? '')) return;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const email = field('customerEmail')?.value.trim() ?? '';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return;
  const body = new URLSearchParams({
    customerEmail: email,
    customerName: field('customerName')?.value ?? '',
    customerPhone: field('customerPhone')?.value ?? '',
  });
  if (field(RECOVERY_OPT_OUT_FIELD)?.checked) body.set(RECOVERY_OPT_OUT_FIELD, 'on');
  void fetch(CHECKOUT_CONTACT_PATH, { method: 'POST', body }).catch(() => {});
}
