// npm run admin:create -- --email E --name N: creates an admin in the database the server would
// open (DATA_DIR or DATABASE_URL). The password comes from ADMIN_PASSWORD, else it is asked on
// the terminal without echo; it is never taken from the command line (shell history, ps).
import { parseArgs } from 'node:util';

import { z } from 'zod';

import { emailField, nameField } from '~/modules/auth';
import { createAdmin } from '~/modules/auth/index.server';

import { fail, failOptions, readNewPassword, withDatabase } from './admin-cli';

const USAGE = 'Uso: npm run admin:create -- --email E --name NOME';

const { values } = (() => {
  try {
    return parseArgs({
      options: { email: { type: 'string' }, name: { type: 'string' } },
      strict: true,
    });
  } catch (error) {
    failOptions(error, USAGE);
  }
})();

const input = z
  .object({ email: emailField, fullName: nameField })
  .safeParse({ email: values.email, fullName: values.name });
if (!input.success) {
  fail(`${input.error.issues[0]!.message}\n${USAGE}`);
}

const password = await readNewPassword('Senha: ', 'Repita a senha: ');
const created = await withDatabase((db) => createAdmin(db, { ...input.data, password }));
if (!created.ok) fail(created.error);
console.log(`Administrador criado: ${input.data.email}`);
