import { Link } from 'react-router';

import { pageWindow } from '~/lib/pagination';

const LOOKS = {
  store: {
    base: 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-button px-3',
    link: 'btn-outline',
    current: 'btn-primary font-semibold',
    off: 'text-product-description',
  },
  admin: {
    base: 'min-w-10',
    link: 'admin-button-secondary',
    current: 'admin-button-primary',
    off: 'admin-button text-slate-500',
  },
} as const;

/**
 * Every list's pager: previous, the page numbers around this one, next; nothing when the list
 * fits one page. `href` gives a page's address with the list's filters kept (see withPage).
 */
export function Pagination({
  label = 'Paginação',
  page,
  pageCount,
  href,
  look,
}: {
  /** The navigation's accessible name, e.g. "Páginas de pedidos". */
  label?: string;
  page: number;
  pageCount: number;
  href: (page: number) => string;
  /** The storefront's theme or the admin's neutral look. */
  look: keyof typeof LOOKS;
}) {
  if (pageCount <= 1) return null;
  const { base, link, current, off } = LOOKS[look];
  const step = (target: number, words: string, rel: 'prev' | 'next') =>
    target >= 1 && target <= pageCount ? (
      <Link to={href(target)} rel={rel} className={`${base} ${link}`}>
        {words}
      </Link>
    ) : (
      <span aria-disabled="true" className={`${base} ${off}`}>
        {words}
      </span>
    );
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>{step(page - 1, 'Anterior', 'prev')}</li>
        {pageWindow(page, pageCount).map((n, index) =>
          n === null ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={href(n)}
                aria-label={`Página ${n}`}
                aria-current={n === page ? 'page' : undefined}
                className={`${base} ${n === page ? current : link}`}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        <li>{step(page + 1, 'Próxima', 'next')}</li>
      </ul>
    </nav>
  );
}
