// npm run admin:reset-password -- --email E: a new password for the admin with this e-mail, in
// the database the server would open (DATA_DIR or DATABASE_URL), for a store whose admins cannot
// receive the 'Esqueci minha senha' e-mail. As admin:create, the password comes from
// ADMIN_PASSWORD, else it is asked on the terminal without echo; never from the command line
// (shell history, ps). Every session of that admin ends.
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';

import { databaseOptionsFromEnv, openDatabase } from '~/db/database.server';
import { parseEnv } from '~/lib/env.server';
import { emailField, newPasswordField } from '~/modules/auth';
import { setAdminPassword } from '~/modules/auth/index.server';

const USAGE = 'Usage: npm run admin:reset-password -- --email E';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function askPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    fail('Set ADMIN_PASSWORD, or run this in a terminal to type the password.');
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Typed characters are not echoed back.
  (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text) => {
    if (text.includes(prompt)) process.stdout.write(prompt);
  };
  const answer = await new Promise<string>((resolve) => rl.question(prompt, resolve));
  rl.close();
  process.stdout.write('\n');
  return answer;
}

const { values } = (() => {
  try {
    return parseArgs({ options: { email: { type: 'string' } }, strict: true });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
})();

const email = emailField.safeParse(values.email);
if (!email.success) fail(`${email.error.issues[0]!.message}\n${USAGE}`);

let password = process.env.ADMIN_PASSWORD;
if (password === undefined) {
  password = await askPassword('Nova senha: ');
  if ((await askPassword('Repita a nova senha: ')) !== password) fail('As senhas não conferem.');
}
const checked = newPasswordField.safeParse(password);
if (!checked.success) fail(checked.error.issues[0]!.message);

let changed: boolean;
try {
  const database = await openDatabase(databaseOptionsFromEnv(parseEnv()));
  try {
    await database.migrate();
    changed = await setAdminPassword(database.db, {
      email: email.data,
      newPassword: checked.data,
    });
  } finally {
    await database.close();
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (!changed) {
  fail(
    `Nenhum administrador com o e-mail ${email.data}. Para criar um: npm run admin:create -- --email ${email.data} --name "Seu nome"`,
  );
}
console.log(
  `Senha redefinida: ${email.data}. As sessões abertas deste administrador foram encerradas.`,
);
