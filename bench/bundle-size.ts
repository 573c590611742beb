// npx tsx bench/bundle-size.ts [build dir]: how much JavaScript the storefront sends, gzip -9, from
// the build's route manifest (entry, root and every route outside /admin, with what they import),
// and the admin's own on top. Names any admin-only library that a storefront chunk pulls in.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestEntry {
  id?: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasDefaultExport?: boolean;
  module: string;
  imports?: string[];
  css?: string[];
}

const buildDir = resolve(process.argv[2] ?? process.env.VITRINE_BUILD_DIR ?? 'build');
const assets = join(buildDir, 'client', 'assets');
// The newest: a build folder outside the repository is not emptied by the next build.
const manifestFile = readdirSync(assets)
  .filter((name) => /^manifest-[\w-]+\.js$/.test(name))
  .sort((a, b) => statSync(join(assets, b)).mtimeMs - statSync(join(assets, a)).mtimeMs)[0];
if (!manifestFile) throw new Error(`No route manifest in ${assets}: build first`);
const text = readFileSync(join(assets, manifestFile), 'utf8');
const manifest = JSON.parse(text.slice(text.indexOf('=') + 1).replace(/;\s*$/, '')) as {
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry>;
};

// By URL, not by file or id: a route is the admin's when its full path is under /admin.
const fullPath = (route: ManifestEntry): string =>
  [route.parentId ? fullPath(manifest.routes[route.parentId]!) : '', route.path ?? '']
    .filter(Boolean)
    .join('/');
const isAdmin = (id: string) => /^\/?admin(\/|$)/.test(fullPath(manifest.routes[id]!));
const files = (entries: ManifestEntry[]) =>
  new Set(entries.flatMap((entry) => [entry.module, ...(entry.imports ?? [])]));
const storefront = files([
  manifest.entry,
  ...Object.values(manifest.routes).filter((route) => !isAdmin(route.id!)),
]);
const admin = files(Object.values(manifest.routes).filter((route) => isAdmin(route.id!)));
const adminOnly = [...admin].filter((file) => !storefront.has(file));

// Pages share most of their files: each is compressed once.
const gzipped = new Map<string, number>();
const gzipBytes = (file: string) => {
  let bytes = gzipped.get(file);
  if (bytes === undefined) {
    bytes = gzipSync(readFileSync(join(buildDir, 'client', file)), { level: 9 }).length;
    gzipped.set(file, bytes);
  }
  return bytes;
};
const total = (set: Iterable<string>) => [...set].reduce((sum, file) => sum + gzipBytes(file), 0);

// Code that only the admin may load: finding it in a storefront chunk is a leak.
const ADMIN_MARKERS = [
  ['uPlot', /uPlot|u-legend|u-over/],
  ['admin screens', /Salvar Configurações|Usuários Administradores|Detalhes do Pedido/],
] as const;
const leaks = [...storefront].flatMap((file) => {
  const code = readFileSync(join(buildDir, 'client', file), 'utf8');
  return ADMIN_MARKERS.filter(([, pattern]) => pattern.test(code)).map(
    ([name]) => `${name} in ${file}`,
  );
});

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`Build: ${buildDir}`);
console.log(`Storefront JavaScript: ${storefront.size} files, ${kb(total(storefront))} gzip`);
console.log(`Admin-only JavaScript: ${adminOnly.length} files, ${kb(total(adminOnly))} gzip`);

// What a shopper's browser loads for the first page it opens: the entry and the route's chain.
const chain = (route: ManifestEntry): ManifestEntry[] =>
  route.parentId ? [...chain(manifest.routes[route.parentId]!), route] : [route];
console.log('First load per storefront page:');
for (const route of Object.values(manifest.routes)) {
  // Pages only: a leaf with a component (layouts and resource routes are no page of their own).
  const leaf = route.index || !Object.values(manifest.routes).some((r) => r.parentId === route.id);
  if (isAdmin(route.id!) || !route.hasDefaultExport || !leaf) continue;
  const page = total(files([manifest.entry, ...chain(route)]));
  console.log(`  /${fullPath(route)}`.padEnd(34), kb(page));
}
console.log(
  leaks.length
    ? `Admin code in storefront chunks:\n  ${leaks.join('\n  ')}`
    : 'No admin code in storefront chunks.',
);
process.exitCode = leaks.length ? 1 : 0;
