// Adds to package-lock.json the platform-specific optional packages that npm leaves out when its
// registry cannot describe them (the mirror on our build machines carries only Linux builds), so
// that `npm ci` finds the lock complete. Each entry gets the os/cpu/libc that its name encodes;
// npm skips the ones that do not match the machine and fetches the rest by version.
// Run after `npm install` if `npm ci` reports "Missing: … from lock file".
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;

const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];
const OSES = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32'];

/**
 * Reads "linux-arm64-musl", "win32-x64-msvc", "android-arm-eabi", "wasm32-wasi" from a name.
 * @param {string} name
 * @returns {{ cpu: string[], os?: string[], libc?: string[] } | undefined}
 */
function platformOf(name) {
  const parts = (name.split('/').pop() ?? '').split('-');
  const os = OSES.find((candidate) => parts.includes(candidate));
  const cpu = CPUS.find((candidate) => parts.includes(candidate));
  if (!cpu) return undefined;
  /** @type {{ cpu: string[], os?: string[], libc?: string[] }} */
  const platform = { cpu: [cpu] };
  if (os) platform.os = [os];
  if (os === 'linux')
    platform.libc = [parts.some((part) => part.startsWith('musl')) ? 'musl' : 'glibc'];
  return platform;
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${dependency}`;
    const hoisted = `node_modules/${dependency}`;
    if (packages[nested] || packages[hoisted]?.version === version) continue;
    const platform = platformOf(dependency);
    if (!platform) continue;
    // Hoisted like its siblings, unless another version already sits there.
    packages[packages[hoisted] ? nested : hoisted] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`Added ${added} platform package entries to package-lock.json.`);
