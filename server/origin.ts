import { networkInterfaces } from 'node:os';

import type { Env } from '~/lib/env.server';

// A host name or IPv4 address, or an IPv6 address in brackets, with an optional port.
const HOST_HEADER = /^(?:[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin ("https://loja.com.br") a request names with this protocol and Host (or trusted
 * X-Forwarded-Host) value, or null when the value is not a plain host: such a header is junk or
 * an attack, and must neither crash URL building nor reach a page.
 */
export function originOf(protocol: string, host: string | undefined): URL | null {
  if (!host || host.length > 255 || !HOST_HEADER.test(host)) return null;
  if (protocol !== 'http' && protocol !== 'https') return null;
  try {
    return new URL(`${protocol}://${host}`);
  } catch {
    return null;
  }
}

/** Host names (no port) the store answers to, from ALLOWED_HOSTS or the defaults. */
export type HostAllowList = (hostname: string) => boolean;

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/**
 * ALLOWED_HOSTS when set; otherwise the address the server listens on (every address of this
 * machine when it listens on all of them, so a store reached by its LAN address works) and
 * localhost. The hosts of PUBLIC_URL and ADMIN_URL are always allowed.
 */
export function hostAllowList(
  env: Pick<Env, 'ALLOWED_HOSTS' | 'HOST' | 'PUBLIC_URL' | 'ADMIN_URL'>,
): HostAllowList {
  const patterns = [...(env.ALLOWED_HOSTS ?? defaultHosts(env.HOST))];
  for (const url of [env.PUBLIC_URL, env.ADMIN_URL]) {
    if (url) patterns.push(bare(new URL(url).hostname));
  }
  const exact = new Set(patterns.filter((pattern) => !pattern.startsWith('.')));
  const suffixes = patterns.filter((pattern) => pattern.startsWith('.'));
  return (hostname) => {
    const name = bare(hostname.toLowerCase());
    return (
      exact.has('*') ||
      exact.has(name) ||
      suffixes.some((suffix) => name === suffix.slice(1) || name.endsWith(suffix))
    );
  };
}

function defaultHosts(listenHost: string): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1'];
  const listening = bare(listenHost.toLowerCase());
  if (!WILDCARD_ADDRESSES.has(listening)) return [...hosts, listening];
  const addresses = Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => entry.address.toLowerCase()),
  );
  return [...hosts, ...addresses];
}

/** IPv6 addresses are compared without their brackets. */
function bare(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}
