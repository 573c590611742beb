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
