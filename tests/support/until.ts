import { todayIn } from '~/lib/periods';

/** Asks `find` every 250 ms until it answers something, for at most `ms`. */
export async function until<T>(
  find: () => Promise<T | undefined>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Waits, when the day in `timeZone` ends within `margin` ms, until it has ended. For a test that
 * places data on "today" and then has the server, which reads its own clock, show it back: a run
 * that straddles midnight would compare two different days (the rules of days and months are
 * proved below, with `now` given).
 */
export async function clearOfMidnight(timeZone: string, margin: number): Promise<void> {
  const day = todayIn(timeZone);
  if (todayIn(timeZone, new Date(Date.now() + margin)) === day) return;
  while (todayIn(timeZone) === day) await new Promise((resolve) => setTimeout(resolve, 1_000));
}
