import { lazy, Suspense } from 'react';

// Shown only until the shopper answers, and only on a store with tracking set up: its code is
// fetched when it is shown, not with every page. Until it has arrived the page keeps the server's
// banner, whose forms post and reload the page without JavaScript just as they do with it.
const Banner = lazy(() =>
  import('./consent').then((module) => ({ default: module.ConsentBanner })),
);

/** The LGPD banner (consent.tsx), its code fetched when it is shown. */
export function ConsentBanner() {
  return (
    <Suspense fallback={null}>
      <Banner />
    </Suspense>
  );
}
