import { readFile } from 'node:fs/promises';

import type { PixApiTls } from './pix-api.server';

/**
 * The client certificate named by the environment: PIX_API_CERT and PIX_API_KEY as PEM files,
 * or PIX_API_CERT alone as a PKCS#12 file with its password (as Efí hands it out); PIX_API_CA
 * the bank's CA when it is not a public one.
 */
export async function pixApiTlsFromFiles(paths: {
  cert: string;
  key?: string;
  password?: string;
  ca?: string;
}): Promise<PixApiTls> {
  const ca = paths.ca ? await readFile(paths.ca) : undefined;
  if (paths.key) {
    return { cert: await readFile(paths.cert), key: await readFile(paths.key), ca };
  }
  return { pfx: await readFile(paths.cert), passphrase: paths.password, ca };
}

/**
 * The certificate uploaded at /admin/payments, kept sealed in base64: a PEM file holding the
 * certificate and its key, or a PKCS#12 bundle with its password.
 */
export function pixApiTlsFromUpload(base64: string, password?: string): PixApiTls {
  const bytes = Buffer.from(base64, 'base64');
  const text = bytes.toString('latin1');
  if (text.includes('-----BEGIN')) {
    // OpenSSL reads the certificate and the key each from its own block of the one file.
    return { cert: text, key: text };
  }
  return { pfx: bytes, passphrase: password };
}
