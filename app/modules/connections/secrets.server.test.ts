import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import {
  decodeSecretsKey,
  loadSecretsKey,
  openSecret,
  sealSecret,
  SECRETS_KEY_FILE,
} from './secrets.server';

const KEY_TEXT = randomBytes(32).toString('base64');
const OTHER_KEY_TEXT = randomBytes(32).toString('base64');
const TOKEN = 'APP_USR-1234567890-abcdef';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true })));
});
async function folder() {
  const made = await mkdtemp(join(tmpdir(), 'vitrine-secrets-'));
  folders.push(made);
  return made;
}

describe('sealed secrets', () => {
  it('opens what it sealed, and the sealed text holds no trace of the secret', async () => {
    const key = (await loadSecretsKey({ secretsKey: KEY_TEXT }))!;
    const sealed = sealSecret(key, 'mercadopago_access_token', TOKEN);
    expect(sealed).not.toContain(TOKEN);
    expect(sealed).not.toContain(Buffer.from(TOKEN).toString('base64'));
    expect(sealed).not.toContain(Buffer.from(TOKEN).toString('base64url'));
    expect(openSecret(key, 'mercadopago_access_token', sealed)).toBe(TOKEN);
    // A new nonce every time: the same secret never seals to the same text.
    expect(sealSecret(key, 'mercadopago_access_token', TOKEN)).not.toBe(sealed);
  });

  it('does not open under another key, for another field, or once changed', async () => {
    const key = (await loadSecretsKey({ secretsKey: KEY_TEXT }))!;
    const other = (await loadSecretsKey({ secretsKey: OTHER_KEY_TEXT }))!;
    const sealed = sealSecret(key, 'smtp_url', 'smtp://loja:senha@smtp.test:587');
    expect(openSecret(other, 'smtp_url', sealed)).toBeNull();
    // Even with the other key's id written in: the cipher's tag still refuses it.
    expect(openSecret(other, 'smtp_url', sealed.replace(key.id, other.id))).toBeNull();
    expect(openSecret(key, 'gateway_secret_key', sealed)).toBeNull();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    parts[3] = flipped.toString('base64url');
    expect(openSecret(key, 'smtp_url', parts.join('.'))).toBeNull();
    for (const junk of ['', 'v1', 'v2.a.b.c.d', `${sealed}.x`, 'v1.%%%.%%.%%.%%']) {
      expect(openSecret(key, 'smtp_url', junk)).toBeNull();
    }
  });

  it('takes only 32 bytes in base64 as a key', () => {
    expect(decodeSecretsKey(KEY_TEXT)).toHaveLength(32);
    expect(decodeSecretsKey(` ${KEY_TEXT}\n`)).toHaveLength(32);
    expect(decodeSecretsKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(decodeSecretsKey('não é uma chave')).toBeNull();
  });
});

describe('the secrets key', () => {
  it('is made once in DATA_DIR for the embedded database, readable by its owner only', async () => {
    const dataDir = await folder();
    const made = (await loadSecretsKey({ embeddedDataDir: dataDir }))!;
    expect(made.source).toBe('file');
    const file = join(dataDir, SECRETS_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = (await loadSecretsKey({ embeddedDataDir: dataDir }))!;
    expect(again.id).toBe(made.id);
    expect(openSecret(again, 'smtp_url', sealSecret(made, 'smtp_url', 'x'))).toBe('x');
    expect(decodeSecretsKey(await readFile(file, 'utf8'))).toEqual(made.bytes);
  });

  it('comes from SECRETS_KEY when set, and is none on PostgreSQL without it', async () => {
    const dataDir = await folder();
    const key = (await loadSecretsKey({ secretsKey: KEY_TEXT, embeddedDataDir: dataDir }))!;
    expect(key.source).toBe('env');
    await expect(stat(join(dataDir, SECRETS_KEY_FILE))).rejects.toThrow();
    expect(await loadSecretsKey({})).toBeNull();
  });

  it('refuses to start on a damaged key file rather than make another', async () => {
    const dataDir = await folder();
    await writeFile(join(dataDir, SECRETS_KEY_FILE), 'estragado\n');
    await expect(loadSecretsKey({ embeddedDataDir: dataDir })).rejects.toThrow(
      /does not hold a secrets key/,
    );
  });
});
