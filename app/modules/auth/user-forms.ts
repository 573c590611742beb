import { z } from 'zod';

import { FORM_MESSAGES, uuidField } from '~/lib/form';

import { AUTH_MESSAGES, emailField, nameField, newPasswordField } from './validation';

/**
 * The forms of the admin's Usuários screen, shared by the browser and the server. They use only
 * what the checkout's schema uses too: the browser's zod is shared with the storefront.
 */
export const USER_FORM_MESSAGES = {
  currentPassword: 'Informe a senha atual.',
  confirmPassword: 'Repita a nova senha.',
  samePassword: 'A nova senha deve ser diferente da atual.',
  notFound: 'Administrador não encontrado.',
  invalid: 'Envie os dados pelo formulário de usuários.',
} as const;

/** A new password typed twice, as the Usuários screen and the reset link's page both ask it. */
const NEW_PASSWORD_TWICE = {
  newPassword: newPasswordField,
  confirmPassword: z
    .string({ error: USER_FORM_MESSAGES.confirmPassword })
    .min(1, USER_FORM_MESSAGES.confirmPassword),
};
const sameNewPassword = (form: { newPassword: string; confirmPassword: string }) =>
  form.newPassword === form.confirmPassword;
const SAME_NEW_PASSWORD = { error: AUTH_MESSAGES.passwordsDiffer, path: ['confirmPassword'] };

/** A new admin: e-mail, name and an initial password with the same rules as any new one. */
export const createAdminSchema = z.object({
  intent: z.enum(['create']),
  email: emailField,
  fullName: nameField,
  password: newPasswordField,
});

/** 'Ativar' / 'Desativar': the value sent is the state wanted. */
export const setAdminActiveSchema = z.object({
  intent: z.enum(['set-active']),
  id: uuidField(USER_FORM_MESSAGES.notFound),
  active: z
    .enum(['true', 'false'], { error: FORM_MESSAGES.invalid })
    .transform((v) => v === 'true'),
});

/** The signed-in admin's own password: the current one, then the new one twice. */
export const changePasswordSchema = z
  .object({
    intent: z.enum(['change-password']),
    currentPassword: z
      .string({ error: USER_FORM_MESSAGES.currentPassword })
      .min(1, USER_FORM_MESSAGES.currentPassword)
      .max(1024),
    ...NEW_PASSWORD_TWICE,
  })
  .refine(sameNewPassword, SAME_NEW_PASSWORD)
  .refine((form) => form.newPassword !== form.currentPassword, {
    error: USER_FORM_MESSAGES.samePassword,
    path: ['newPassword'],
  });

/** 'Esqueci minha senha' and the reset link's page, in pt-BR. */
export const PASSWORD_RESET_MESSAGES = {
  // The same words whether or not the e-mail has an admin.
  requested:
    'Se houver um administrador com este e-mail, enviamos um link para criar uma nova senha. O link vale por 1 hora. Confira também a caixa de spam.',
  invalid:
    'Este link para redefinir a senha não é válido. Confira se copiou o endereço inteiro ou peça um novo link.',
  used: 'Este link já foi usado para redefinir a senha. Se precisar, peça um novo link.',
  expired: 'Este link expirou: ele vale por 1 hora. Peça um novo link.',
  done: 'Senha redefinida com sucesso! As outras sessões desta conta foram encerradas.',
  throttled: (wait: string) =>
    `Muitos pedidos de redefinição de senha. Aguarde ${wait} e tente novamente.`,
} as const;

/** 'Esqueci minha senha': the admin's e-mail. */
export const forgotPasswordSchema = z.object({ email: emailField });

/** The reset link's form: its token, then the new password twice (the rules of any new one). */
export const resetPasswordSchema = z
  .object({
    chave: z
      .string({ error: PASSWORD_RESET_MESSAGES.invalid })
      .min(1, PASSWORD_RESET_MESSAGES.invalid)
      .max(100, PASSWORD_RESET_MESSAGES.invalid),
    ...NEW_PASSWORD_TWICE,
  })
  .refine(sameNewPassword, SAME_NEW_PASSWORD);
