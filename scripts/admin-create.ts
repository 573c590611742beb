// npm run admin:create -- --email E --name N: creates an admin in the database the server would
// open (DATA_DIR or DATABASE_URL). The password comes from ADMIN_PASSWORD, else it is asked on
// the terminal without echo; it is never taken from the command line (shell history, ps).
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';

import { z } from 'zod';

import { databaseOptionsFromEnv, openDatabase } from '~/db/database.server';
import { parseEnv } from '~/lib/env.server';
import { emailField, nameField, newPasswordField } from '~/modules/auth';
import { createAdmin } from '~/modules/auth/index.server';

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
    return parseArgs({
      options: { email: { type: 'string' }, name: { type: 'string' } },
      strict: true,
    });
  } catch (error) {
    fail(`${(error as Error).message}\nUsage: npm run admin:create -- --email E --name N`);
  }
})();

const input = z
  .object({ email: emailField, fullName: nameField })
  .safeParse({ email: values.email, fullName: values.name });
if (!input.success) {
  fail(`${input.error.issues[0]!.message}\nUsage: npm run admin:create -- --email E --name N`);
}

let password = process.env.ADMIN_PASSWORD;
if (password === undefined) {
  password = await askPassword('Senha: ');
  if ((await askPassword('Repita a senha: ')) !== password) fail('As senhas não conferem.');
}
const checked = newPasswordField.safeParse(password);
if (!checked.success) fail(checked.error.issues[0]!.message);

try {
  const database = await openDatabase(databaseOptionsFromEnv(parseEnv()));
  try {
    await database.migrate();
    const created = await createAdmin(database.db, { ...input.data, password: checked.data });
    if (!created.ok) fail(created.error);
    console.log(`Administrador criado: ${input.data.email}`);
  } finally {
    await database.close();
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
