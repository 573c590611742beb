import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** The README's "Code layout" block: the lines between its ``` fences. */
function layoutLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Code layout\n')[1]?.split('\n## ')[0] ?? '';
  const block = /```\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no "Code layout" block');
  return block.split('\n');
}

/** Folders git keeps (build output and scratch folders are not layout). */
function trackedFolders(under: string): string[] {
  const files = execFileSync('git', ['ls-files', '--', under || '.'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const prefix = under ? `${under}/` : '';
  const folders = new Set<string>();
  for (const file of files.split('\n')) {
    const [folder, ...rest] = file.slice(prefix.length).split('/');
    if (file.startsWith(prefix) && folder && rest.length > 0 && !folder.startsWith('.')) {
      folders.add(folder);
    }
  }
  return [...folders].sort();
}

describe("the README's code layout", () => {
  const lines = layoutLines();
  const text = lines.join('\n');

  it('names every top-level folder of the repository', () => {
    const missing = trackedFolders('').filter(
      (folder) => !lines.some((line) => line.startsWith(`${folder}/`)),
    );
    expect(missing).toEqual([]);
  });

  it('names every folder of app/, of app/routes and of app/components', () => {
    const missing = trackedFolders('app').filter(
      (folder) => !lines.some((line) => line.startsWith(`  ${folder}/`)),
    );
    expect(missing).toEqual([]);
    const routes = lines.find((line) => /^ {4}\S+\/ \S/.test(line)) ?? '';
    expect(trackedFolders('app/routes').filter((folder) => !routes.includes(`${folder}/`))).toEqual(
      [],
    );
    const components = /components\/(\S+)\//.exec(text)?.[1]?.split('|') ?? [];
    expect(components.sort()).toEqual(trackedFolders('app/components'));
  });

  it('describes every module in one line, and no module that is gone', () => {
    const described = lines
      .map((line) => /^ {4}([a-z-]+)\/ {2,}(\S.*)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => match[1]);
    expect(described).toEqual(trackedFolders('app/modules'));
  });
});
