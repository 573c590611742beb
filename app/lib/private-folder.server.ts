import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { logger } from './logger.server';

/** A mode's group and other bits. */
const OTHERS = 0o077;

/**
 * Makes `folder` (made if missing) and everything under it readable by this process's user only:
 * folders 0700, files without group or other bits (0600). A folder left open by an earlier
 * version, a restore or an operator's copy is closed again on every start. Symbolic links are
 * neither followed nor changed; an entry gone meanwhile is skipped.
 */
export async function makePrivate(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await tighten(folder);
}

async function tighten(path: string): Promise<void> {
  let mode: number;
  let isFolder: boolean;
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return;
    mode = stats.mode & 0o7777;
    isFolder = stats.isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((mode & OTHERS) !== 0 || (isFolder && (mode & 0o700) !== 0o700)) {
    try {
      await chmod(path, isFolder ? 0o700 : mode & ~OTHERS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      // Another user's file in the folder: this process cannot change it, and still runs.
      if (code !== 'EPERM') throw error;
      logger.warn({ path }, 'Cannot make this file private: it belongs to another user');
    }
  }
  if (!isFolder) return;
  let names: string[];
  try {
    names = await readdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) await tighten(join(path, name));
}
