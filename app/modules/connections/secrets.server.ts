import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The key that seals the secrets staff type in the admin (ADR 038): 32 bytes for AES-256-GCM, and
 * a short id derived from it, stored beside every sealed value so that a value sealed under
 * another key is told apart from a damaged one.
 */
export interface SecretsKey {
  readonly bytes: Buffer;
  readonly id: string;
  /** Where it came from: SECRETS_KEY, or the file made in DATA_DIR for the embedded database. */
  readonly source: 'env' | 'file';
}

export const SECRETS_KEY_BYTES = 32;
/** The key made for the embedded database when SECRETS_KEY is unset, readable by its owner only. */
export const SECRETS_KEY_FILE = 'secrets.key';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

/** A key's text (base64 of 32 bytes, as SECRETS_KEY and the key file hold it), or null. */
export function decodeSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === SECRETS_KEY_BYTES ? bytes : null;
}

function keyFrom(bytes: Buffer, source: SecretsKey['source']): SecretsKey {
  // Not the key, nor enough of it to help guess it: a 64-bit tag of an HMAC under it.
  const id = createHmac('sha256', bytes).update('vitrine secrets key').digest('base64url');
  return { bytes, id: id.slice(0, 11), source };
}

/**
 * The secrets key: SECRETS_KEY when set; else, with the embedded database (a folder only one
 * process opens), the key in DATA_DIR/secrets.key, made on the first start; else (PostgreSQL,
 * whose instances must share one key) none, and secrets can only come from the environment.
 */
export async function loadSecretsKey(options: {
  secretsKey?: string;
  /** DATA_DIR when the database is the embedded one; undefined with PostgreSQL. */
  embeddedDataDir?: string;
}): Promise<SecretsKey | null> {
  if (options.secretsKey !== undefined) {
    const bytes = decodeSecretsKey(options.secretsKey);
    if (!bytes)
      throw new Error('SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32)');
    return keyFrom(bytes, 'env');
  }
  if (options.embeddedDataDir === undefined) return null;
  const path = join(options.embeddedDataDir, SECRETS_KEY_FILE);
  await mkdir(options.embeddedDataDir, { recursive: true, mode: 0o700 });
  try {
    const file = await open(path, 'wx', 0o600);
    const bytes = randomBytes(SECRETS_KEY_BYTES);
    try {
      await file.writeFile(`${bytes.toString('base64')}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    // The process's umask may have narrowed the mode further, never widened it; say it anyway.
    await chmod(path, 0o600);
    return keyFrom(bytes, 'file');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const bytes = decodeSecretsKey(await readFile(path, 'utf8'));
  if (!bytes) {
    throw new Error(
      `${path} does not hold a secrets key (32 bytes in base64): restore it from where it was ` +
        'kept, or remove it and type the secrets in the admin again',
    );
  }
  return keyFrom(bytes, 'file');
}

/**
 * A secret sealed under the key: "v1.<key id>.<iv>.<ciphertext>.<tag>". The secret's name is
 * authenticated with it, so a sealed value moved to another field does not open there.
 */
export function sealSecret(key: SecretsKey, name: string, value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key.bytes, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [FORMAT, key.id, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/**
 * Sealing and opening under one key, for a module that keeps secrets of its own (the ERP's
 * tokens, the API Pix's).
 */
export function secretsVault(key: SecretsKey): {
  seal(name: string, value: string): string;
  open(name: string, sealed: string): string | null;
} {
  return {
    seal: (name, value) => sealSecret(key, name, value),
    open: (name, sealed) => openSecret(key, name, sealed),
  };
}

/** The secret, or null when it was sealed under another key, for another name, or is damaged. */
export function openSecret(key: SecretsKey, name: string, sealed: string): string | null {
  const [format, id, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (
    format !== FORMAT ||
    id !== key.id ||
    !iv ||
    ciphertext === undefined ||
    !tag ||
    rest.length
  ) {
    return null;
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key.bytes, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
