import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
// From here React listens to the page's events, while it hydrates slice by slice: a browser test
// that must tap during hydration (the interaction test) waits for this mark; `data-hydrated`
// (root.tsx) says hydration is done.
document.documentElement.setAttribute('data-hydrating', '');
