import { z } from 'zod';

import {
  changePasswordSchema,
  createAdminSchema,
  setAdminActiveSchema,
  USER_FORM_MESSAGES,
} from './user-forms';
import { firstAdminSchema, signInSchema } from './validation';

// The admin screens' action schemas: only the server reads them (the browser checks each form
// with its own part, such as createAdminSchema).

/** What the users screen posts: add an admin, (de)activate one, or change one's own password. */
export const userActionSchema = z.discriminatedUnion(
  'intent',
  [createAdminSchema, setAdminActiveSchema, changePasswordSchema],
  { error: USER_FORM_MESSAGES.invalid },
);

/** What the login page posts: sign in, or create the first admin with the setup code. */
export const loginSchema = z.discriminatedUnion(
  'intent',
  [
    signInSchema.extend({ intent: z.literal('sign-in') }),
    firstAdminSchema.extend({ intent: z.literal('create-admin') }),
  ],
  { error: 'Envie os dados pelo formulário de acesso.' },
);
