import { z } from 'zod';

/** Sign-in and admin forms, shared by the browser and the server. */
export const AUTH_MESSAGES = {
  email: 'Informe um e-mail válido.',
  password: 'Informe a senha.',
  passwordLength: 'A senha deve ter entre 8 e 128 caracteres.',
  name: 'Informe o nome.',
  setupCode: 'Informe o código de configuração.',
  passwordsDiffer: 'As senhas não conferem.',
} as const;

export const emailField = z
  .string({ error: AUTH_MESSAGES.email })
  .trim()
  .max(254, AUTH_MESSAGES.email)
  .pipe(z.email({ error: AUTH_MESSAGES.email }))
  .transform((email) => email.toLowerCase());

export const newPasswordField = z
  .string({ error: AUTH_MESSAGES.passwordLength })
  .min(8, AUTH_MESSAGES.passwordLength)
  .max(128, AUTH_MESSAGES.passwordLength);

export const nameField = z
  .string({ error: AUTH_MESSAGES.name })
  .trim()
  .min(1, AUTH_MESSAGES.name)
  .max(120, AUTH_MESSAGES.name);

export const signInSchema = z.object({
  email: emailField,
  // Any length is accepted here (older passwords); only new ones must follow the rules.
  password: z.string({ error: AUTH_MESSAGES.password }).min(1, AUTH_MESSAGES.password).max(1024),
});

export const firstAdminSchema = z.object({
  setupCode: z
    .string({ error: AUTH_MESSAGES.setupCode })
    .trim()
    .min(1, AUTH_MESSAGES.setupCode)
    .max(64, AUTH_MESSAGES.setupCode),
  email: emailField,
  fullName: nameField,
  password: newPasswordField,
});
