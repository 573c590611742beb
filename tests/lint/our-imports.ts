import { posix } from 'node:path';

import ts from 'typescript';

// How the walls of tests/lint read a file's imports: with the TypeScript compiler, so that no
// way of naming a module or a flow escapes them.

/**
 * The modules and flows a file at `path` (from the repository's root) imports, as
 * `modules/<name>` (whichever of the module's doors) and `flows/<file>`. Every way of naming one
 * counts: type-only imports, re-exports, `import()` calls and types, relative paths.
 */
export function ourImports(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found = new Set<string>();
  const take = (specifier: ts.Node | undefined) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const name = ourName(path, specifier.text);
    if (name) found.add(name);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) take(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      take(node.argument.literal);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      take(node.arguments[0]);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      take(node.moduleReference.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...found].sort();
}

function ourName(path: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith('~/')) target = `app/${specifier.slice(2)}`;
  else if (specifier.startsWith('.')) target = posix.join(posix.dirname(path), specifier);
  else return undefined;
  const module = /^app\/modules\/([^/]+)/.exec(target);
  if (module) return `modules/${module[1]}`;
  const flow = /^app\/flows\/(.+?)(\.[cm]?[jt]sx?)?$/.exec(target);
  return flow ? `flows/${flow[1]}` : undefined;
}
