import { useEffect, useRef } from 'react';

/**
 * Runs `effect` when `value` changes, never when the component mounts. A part of the page that
 * hydrates on its own (ADR 023) mounts after the shopper may already have used it (opened the
 * menu, the search or the filter sheet, which the browser opens without scripts): a mount is no
 * navigation, and must not close what the shopper just opened.
 */
export function useOnChange(value: string, effect: () => void): void {
  const seen = useRef(value);
  useEffect(() => {
    if (seen.current === value) return;
    seen.current = value;
    effect();
  }, [value, effect]);
}
