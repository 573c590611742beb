// What the admin commands (admin:create, admin:reset-password) share: failing with a message,
// the password from ADMIN_PASSWORD or typed twice without echo (never from the command line:
// shell history, ps), and the database the server would open (DATA_DIR or DATABASE_URL).
import { createInterface } from 'node:readline';

import { BackupError } from '~/db/backup.server';
import {
  DatabaseLockedError,
  databaseOptionsFromEnv,
  openDatabase,
  type Db,
} from '~/db/database.server';
import { EnvError, parseEnv } from '~/lib/env.server';
import { newPasswordField } from '~/modules/auth';

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** What parseArgs refused (its own words are English), then how to call the command. */
export function failOptions(error: unknown, usage: string): never {
  const code = (error as NodeJS.ErrnoException).code;
  const option = /'(-{1,2}[\w-]+)/.exec(error instanceof Error ? error.message : '')?.[1];
  const reason =
    code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
      ? `Opção desconhecida: ${option}.`
      : code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
        ? `A opção ${option} precisa de um valor.`
        : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
          ? 'Escreva cada valor depois da sua opção.'
          : 'Opções inválidas.';
  fail(`${reason}\n${usage}`);
}

async function askPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    fail('Defina ADMIN_PASSWORD, ou rode o comando num terminal para digitar a senha.');
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

/**
 * A failure as the command prints it: ours say what to do (a busy database folder, a bad
 * environment, a backup); anything else (a driver's refused connection, in English) is said to
 * be the database's.
 */
export function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof DatabaseLockedError ||
    error instanceof BackupError ||
    error instanceof EnvError
    ? message
    : `Não foi possível usar o banco de dados: ${message}`;
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
    fail(failureMessage(error));
  }
}
