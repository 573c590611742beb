import { Fragment } from 'react';
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  /** Absent for the current page, the last crumb. */
  to?: string;
}

function Chevron() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="shrink-0 text-product-description"
    >
      <path d="m9 6 6 6-6 6" />
    </svg>
  );
}

/**
 * Where the page sits in the store: Início › Produtos › Categoria › the page. On one line; on a
 * phone the current page's name is cut with an ellipsis rather than wrapping the trail.
 */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Você está em" className="text-sm" data-testid="breadcrumbs">
      <ol className="flex min-w-0 items-center gap-1.5">
        {items.map((item, index) => (
          <Fragment key={`${index}-${item.label}`}>
            {index > 0 ? (
              <li aria-hidden="true" className="flex shrink-0">
                <Chevron />
              </li>
            ) : null}
            {item.to ? (
              <li className="shrink-0 max-sm:max-w-[9rem] max-sm:truncate">
                <Link
                  to={item.to}
                  className="text-breadcrumb underline-offset-2 hover:underline focus-visible:underline"
                >
                  {item.label}
                </Link>
              </li>
            ) : (
              <li className="min-w-0 truncate font-semibold">
                <span aria-current="page">{item.label}</span>
              </li>
            )}
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
