import { Suspense, useCallback, useEffect, useRef, type ReactNode } from 'react';

/**
 * A part of the page that React hydrates on its own. Server-rendered Suspense boundaries are
 * hydrated after the page around them, each in its own slice of work, and a tap inside one that is
 * not hydrated yet hydrates that one first, at once, and not the whole page (React's selective
 * hydration; ADR 023). Nothing inside suspends: the boundary is only there to cut the work up.
 */
export function HydrationSlice({ children }: { children: ReactNode }) {
  const inside = useRef<SliceState>({ hydrated: false, counted: false });
  // Runs when the page around commits: the inside, hydrated later, is counted as waiting then.
  useEffect(() => {
    const state = inside.current;
    if (!state.hydrated) {
      state.counted = true;
      waiting += 1;
    }
    return () => settle(state);
  }, []);
  const hydrated = useCallback(() => {
    inside.current.hydrated = true;
    settle(inside.current);
  }, []);
  return (
    <Suspense fallback={null}>
      {children}
      <SliceHydrated onHydrated={hydrated} />
    </Suspense>
  );
}

interface SliceState {
  hydrated: boolean;
  counted: boolean;
}

function SliceHydrated({ onHydrated }: { onHydrated: () => void }) {
  useEffect(onHydrated, [onHydrated]);
  return null;
}

let waiting = 0;
let shellHydrated = false;

function settle(state: SliceState) {
  if (state.counted) {
    state.counted = false;
    waiting -= 1;
  }
  markWhenHydrated();
}

/**
 * Marks the page as taken over by React (`data-hydrated`) once the page around the slices and
 * every slice are hydrated: a browser test waits for this before it relies on the page's scripts.
 * The root's effect calls this, after the effects of everything inside it.
 */
export function markWhenHydrated(shell = false) {
  if (shell) shellHydrated = true;
  if (shellHydrated && waiting === 0) document.documentElement.setAttribute('data-hydrated', '');
}
