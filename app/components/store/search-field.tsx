import { useEffect, useRef } from 'react';
import { Form, useLocation } from 'react-router';

import { useSettings } from '~/components/store/store-data';

import { SearchIcon } from '~/components/ui/icons';
import { useOnChange } from '~/lib/use-on-change';

/** The catalogue search (GET /products?q=…), the same with or without JavaScript. */
function SearchForm({ id, className = '' }: { id: string; className?: string }) {
  const settings = useSettings();
  return (
    <Form method="get" action="/products" role="search" className={`flex ${className}`}>
      <label htmlFor={id} className="sr-only">
        Buscar produtos
      </label>
      <input
        id={id}
        type="search"
        name="q"
        maxLength={200}
        enterKeyHint="search"
        placeholder={settings.search_placeholder_text}
        className="field min-w-0 flex-1 rounded-r-none border-r-0"
      />
      <button
        type="submit"
        className="btn btn-primary shrink-0 rounded-l-none px-3"
        data-testid="header-search-submit"
      >
        <SearchIcon className="h-5 w-5" />
        <span className="sr-only">Pesquisar</span>
      </button>
    </Form>
  );
}

/** The header's search field, always there on wider screens. */
export function HeaderSearch() {
  return <SearchForm id="header-search" className="w-full max-w-md" />;
}

/**
 * The phones' search: an icon that opens the field below the header. A <details>, so it opens
 * before (and without) JavaScript; once hydrated, opening it puts the cursor in the field, and
 * Escape or leaving the page closes it.
 */
export function PhoneSearch() {
  const details = useRef<HTMLDetailsElement>(null);
  const { pathname, search } = useLocation();
  // Closed when the shopper moves on; not when React takes over the page, which on a slow phone
  // can come after the shopper has already opened it.
  useOnChange(pathname + search, () => {
    if (details.current) details.current.open = false;
  });

  useEffect(() => {
    const element = details.current;
    if (!element) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !element.open) return;
      element.open = false;
      element.querySelector('summary')?.focus();
    };
    element.addEventListener('keydown', onKey);
    return () => element.removeEventListener('keydown', onKey);
  }, []);

  return (
    <details
      ref={details}
      className="phone-search"
      onToggle={(event) => {
        if (event.currentTarget.open) event.currentTarget.querySelector('input')?.focus();
      }}
    >
      <summary
        data-testid="phone-search-toggle"
        className="inline-flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-button text-icon [&::-webkit-details-marker]:hidden"
      >
        <SearchIcon />
        <span className="sr-only">Abrir busca</span>
      </summary>
      <div className="absolute inset-x-0 top-full border-b border-card-border bg-header px-4 py-3 shadow-md">
        <SearchForm id="phone-search" />
      </div>
    </details>
  );
}
