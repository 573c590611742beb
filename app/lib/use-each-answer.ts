import { useEffect, useRef } from 'react';

/**
 * Runs `onAnswer` once for each new answer (a fetcher's data, or actionData), after a render
 * that shows it; `undefined` is no answer.
 *
 * Not an effect keyed on the answer: React Router reads a fetcher's data from a mutable map that
 * it fills before React renders the router's new state. When React renders a component in
 * between for another reason, with its props, state and router state unchanged, that render
 * reads the new answer and React drops it as unchanged, yet keeps the dependencies it was given
 * without running the effect; every later render then sees the same answer and the effect never
 * runs for it (a dialog that stayed open after saving). This effect runs after every commit and
 * compares with the last answer it handled instead.
 */
export function useEachAnswer<T>(answer: T | undefined, onAnswer: (answer: T) => void) {
  const handled = useRef<T | undefined>(undefined);
  useEffect(() => {
    if (answer === undefined || answer === handled.current) return;
    handled.current = answer;
    onAnswer(answer);
  });
}
