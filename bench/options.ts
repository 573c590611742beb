/** A whole-number setting from the environment, or the fallback; anything else stops the run. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`${name} must be a positive whole number, got "${raw}".`);
    process.exit(2);
  }
  return value;
}

/** A comma-separated list of whole numbers ("10000,100000"), or the fallback. */
export function positiveIntegers(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  const values = raw.split(',').map((part) => Number(part.trim().replaceAll('_', '')));
  if (values.some((value) => !Number.isSafeInteger(value) || value < 1)) {
    console.error(`${name} must be whole numbers separated by commas, got "${raw}".`);
    process.exit(2);
  }
  return values;
}

/** A comma-separated subset of `allowed` (all of them by default), kept in `allowed`'s order. */
export function choices<T extends string>(name: string, allowed: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return [...allowed];
  const picked = raw.split(',').map((part) => part.trim());
  const unknown = picked.filter((part) => !(allowed as readonly string[]).includes(part));
  if (unknown.length > 0 || picked.length === 0) {
    console.error(`${name} takes some of ${allowed.join(', ')} (comma-separated), got "${raw}".`);
    process.exit(2);
  }
  return allowed.filter((value) => picked.includes(value));
}
