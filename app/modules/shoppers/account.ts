import { z } from 'zod/mini';

import { FORM_MESSAGES, text, uuidField } from '~/lib/form';
import { checkoutFormSchema } from '~/modules/checkout';

/** The account's pages. */
export const ACCOUNT_PATH = '/conta';
export const SIGN_IN_PATH = '/conta/entrar';
export const SIGN_OUT_PATH = '/conta/sair';
export const DATA_EXPORT_PATH = '/conta/dados';

/** How long a code works, and how many checks it takes before it stops working. */
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_TRIES = 5;

export const ACCOUNT_MESSAGES = {
  email: 'Informe seu e-mail.',
  emailInvalid: 'E-mail inválido.',
  code: 'Informe o código de 6 dígitos.',
  codeInvalid: 'O código tem 6 dígitos, só números.',
  codeSent: (email: string) =>
    `Enviamos um código de 6 dígitos para ${email}. Ele vale 10 minutos.`,
  wrongCode: 'Código incorreto. Confira o e-mail e tente de novo.',
  codeSpent:
    'Este código não vale mais: expirou, já foi usado ou teve tentativas demais. Peça um novo.',
  throttled: (wait: string) => `Muitos códigos pedidos. Aguarde ${wait} e tente novamente.`,
  signedIn: 'Pronto! Você entrou na sua conta.',
  signedOut: 'Você saiu da sua conta.',
  addressSaved: 'Endereço salvo.',
  addressRemoved: 'Endereço removido.',
  addressDefault: 'Endereço padrão alterado.',
  addressMissing: 'Endereço não encontrado. Recarregue a página.',
  addressLimit: 'Você já tem 10 endereços salvos. Remova um para salvar outro.',
  preferencesSaved: 'Preferências salvas.',
  favoritesSaved: 'Favoritos atualizados.',
  deleteCodeSent: (email: string) =>
    `Enviamos um código para ${email}. Digite-o abaixo para confirmar a exclusão da conta.`,
  deleted:
    'Sua conta foi excluída. Seus pedidos continuam guardados pela loja, como a lei fiscal exige.',
  intent: 'Envie os dados pelo formulário da página.',
} as const;

/** An e-mail typed to sign in: trimmed, lower case, at most 254 characters. */
export const shopperEmailField = z.pipe(
  text(ACCOUNT_MESSAGES.email).check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(1, { error: ACCOUNT_MESSAGES.email, abort: true }),
    z.maxLength(254, { error: ACCOUNT_MESSAGES.emailInvalid, abort: true }),
  ),
  z.email({ error: ACCOUNT_MESSAGES.emailInvalid }),
);

const codeField = text(ACCOUNT_MESSAGES.code).check(
  z.overwrite((value: string) => value.replace(/\s+/g, '')),
  z.minLength(1, { error: ACCOUNT_MESSAGES.code, abort: true }),
  z.regex(/^\d{6}$/, { error: ACCOUNT_MESSAGES.codeInvalid }),
);

/** `/conta/entrar`: ask for a code, then type it. */
export const signInSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('send'), email: shopperEmailField }),
  z.object({ intent: z.literal('verify'), email: shopperEmailField, code: codeField }),
]);

/** A saved address: the checkout's own address fields and rules. */
export const savedAddressSchema = z.pick(checkoutFormSchema, {
  zipCode: true,
  street: true,
  number: true,
  complement: true,
  neighborhood: true,
  city: true,
  state: true,
});
export type SavedAddressInput = z.output<typeof savedAddressSchema>;

/**
 * The e-mails a shopper may turn off. The orders' own e-mails (received, paid, shipped…) are not
 * here: they always go. Each is kept by the domain that sends those e-mails (the checkout reminders'
 * by recovery, with the opt-out its e-mails' unsubscribe link writes), and read and written
 * through the account's flow.
 */
export const SHOPPER_PREFERENCES = [
  {
    key: 'checkout_reminders',
    label: 'Lembretes de compra não finalizada',
    hint: 'Um e-mail se você deixar produtos no checkout sem finalizar o pedido.',
    defaultEnabled: true,
  },
] as const satisfies readonly {
  key: string;
  label: string;
  hint: string;
  defaultEnabled: boolean;
}[];
export type ShopperPreferenceKey = (typeof SHOPPER_PREFERENCES)[number]['key'];

const addressId = uuidField(ACCOUNT_MESSAGES.addressMissing);

/** `/conta`'s forms, each by its `intent`. */
export const accountActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.extend(savedAddressSchema, {
      intent: z.literal('save-address'),
      addressId: z.optional(z.union([z.literal(''), addressId])),
      isDefault: z.optional(z.literal('on', { error: FORM_MESSAGES.invalid })),
    }),
    z.object({ intent: z.literal('remove-address'), addressId }),
    z.object({ intent: z.literal('default-address'), addressId }),
    z.object({
      intent: z.literal('preferences'),
      // The checked boxes' keys (a box left unchecked sends nothing).
      enabled: z.optional(z.array(z.enum(SHOPPER_PREFERENCES.map((preference) => preference.key)))),
    }),
    z.object({
      intent: z.literal('favorites'),
      // The browser's favourites, joined with the account's (comma-separated product ids).
      ids: z
        .string({ error: FORM_MESSAGES.invalid })
        .check(z.maxLength(4000, { error: FORM_MESSAGES.invalid })),
    }),
    z.object({ intent: z.literal('remove-favorite'), productId: uuidField(FORM_MESSAGES.invalid) }),
    z.object({ intent: z.literal('ask-delete') }),
    z.object({ intent: z.literal('delete'), code: codeField }),
  ],
  { error: ACCOUNT_MESSAGES.intent },
);
export type AccountAction = z.output<typeof accountActionSchema>;

/** A saved address as the account page and the checkout show it. */
export interface SavedAddress {
  id: string;
  zipCode: string;
  street: string;
  number: string;
  complement: string;
  neighborhood: string;
  city: string;
  state: string;
  isDefault: boolean;
}

/** One line for a saved address: 'Rua A, 10, apto 2 — Centro, Campinas/SP — 13000-000'. */
export function addressLine(address: SavedAddress): string {
  const street = [address.street, address.number, address.complement].filter(Boolean).join(', ');
  const cep = `${address.zipCode.slice(0, 5)}-${address.zipCode.slice(5)}`;
  return `${street} — ${address.neighborhood}, ${address.city}/${address.state} — ${cep}`;
}
