// What the admin commands (admin:create, admin:reset-password) share: failing with a message,
// the password from ADMIN_PASSWORD or typed twice without echo (never from the command line:
// shell history, ps), and the database the server would open (DATA_DIR or DATABASE_URL).
import { createInterface } from 'node:readline';

import { databaseOptionsFromEnv, openDatabase, type Db } from '~/db/database.server';
import { parseEnv } from '~/lib/env.server';
import { newPasswordField } from '~/modules/auth';

export function fail(message: string): never {
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

/** A password that keeps the admins' rules, from ADMIN_PASSWORD or typed twice alike. */
export async function readNewPassword(prompt: string, again: string): Promise<string> {
  let password = process.env.ADMIN_PASSWORD;
  if (password === undefined) {
    password = await askPassword(prompt);
    if ((await askPassword(again)) !== password) fail('As senhas não conferem.');
  }
  const checked = newPasswordField.safeParse(password);
  if (!checked.success) fail(checked.error.issues[0]!.message);
  return checked.data;
}

/** Runs `work` on the migrated database; any error ends the command with its message. */
export async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  try {
    const database = await openDatabase(databaseOptionsFromEnv(parseEnv()));
    try {
      await database.migrate();
      return await work(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}
