// npm run admin:reset-password -- --email E: a new password for the admin with this e-mail, in
// the database the server would open (DATA_DIR or DATABASE_URL), for a store whose admins cannot
// receive the 'Esqueci minha senha' e-mail. As admin:create, the password comes from
// ADMIN_PASSWORD, else it is asked on the terminal without echo; never from the command line
// (shell history, ps). Every session of that admin ends.
import { parseArgs } from 'node:util';

import { emailField } from '~/modules/auth';
import { setAdminPassword } from '~/modules/auth/index.server';

import { fail, failOptions, readNewPassword, withDatabase } from './admin-cli';

const USAGE = 'Uso: npm run admin:reset-password -- --email E';

const { values } = (() => {
  try {
    return parseArgs({ options: { email: { type: 'string' } }, strict: true });
  } catch (error) {
    failOptions(error, USAGE);
  }
})();

const email = emailField.safeParse(values.email);
if (!email.success) fail(`${email.error.issues[0]!.message}\n${USAGE}`);

const password = await readNewPassword('Nova senha: ', 'Repita a nova senha: ');
const changed = await withDatabase((db) =>
  setAdminPassword(db, { email: email.data, newPassword: password }),
);
if (!changed) {
  fail(
    `Nenhum administrador com o e-mail ${email.data}. Para criar um: npm run admin:create -- --email ${email.data} --name "Seu nome"`,
  );
}
console.log(
  `Senha redefinida: ${email.data}. As sessões abertas deste administrador foram encerradas.`,
);
