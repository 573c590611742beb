import { describe, expect, it } from 'vitest';

import { freshReads } from './fresh-reads';

/** A read whose answers the test releases one at a time, counting how many were started. */
function controlledRead() {
  const pending: {
    key: string;
    resolve: (value: string) => void;
    reject: (error: Error) => void;
  }[] = [];
  let version = 0;
  const read = (key: string) =>
    new Promise<string>((resolve, reject) => pending.push({ key, resolve, reject }));
  const answer = (ok = true) => {
    const next = pending.shift()!;
    version += 1;
    if (ok) next.resolve(`${next.key}@${version}`);
    else next.reject(new Error(`failed ${version}`));
  };
  return { read, pending, answer };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('freshReads', () => {
  it('answers callers who asked during a read with the next read, shared by all of them', async () => {
    const source = controlledRead();
    const fresh = freshReads(source.read);
    const first = fresh('p1');
    const during = Array.from({ length: 1000 }, () => fresh('p1'));
    expect(source.pending).toHaveLength(1);
    source.answer();
    await expect(first).resolves.toBe('p1@1');
    await tick();
    // The second read starts only after the first ended: it serves everyone who came meanwhile.
    expect(source.pending).toHaveLength(1);
    source.answer();
    expect(new Set(await Promise.all(during))).toEqual(new Set(['p1@2']));
    // Idle again: the next caller starts a read of its own.
    const later = fresh('p1');
    expect(source.pending).toHaveLength(1);
    source.answer();
    await expect(later).resolves.toBe('p1@3');
  });

  it('reads different keys apart, and lets a failed read fail only its own callers', async () => {
    const source = controlledRead();
    const fresh = freshReads(source.read);
    const a = fresh('a');
    const b = fresh('b');
    expect(source.pending.map((each) => each.key)).toEqual(['a', 'b']);
    const afterA = fresh('a');
    source.answer(false);
    await expect(a).rejects.toThrow('failed 1');
    source.answer();
    await expect(b).resolves.toBe('b@2');
    await tick();
    source.answer();
    await expect(afterA).resolves.toBe('a@3');
  });
});
