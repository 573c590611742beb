import { Link } from 'react-router';

interface AdminPaginationProps {
  /** The navigation's accessible name, e.g. "Páginas de pedidos". */
  label: string;
  page: number;
  pageCount: number;
  /** The URL of a page of the same list (filters kept). */
  href: (page: number) => string;
}

/** "Anterior · Página 2 de 5 · Próxima" under an admin list; nothing when it fits one page. */
export function AdminPagination({ label, page, pageCount, href }: AdminPaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2">
      {page > 1 ? (
        <Link to={href(page - 1)} className="admin-button-secondary" rel="prev">
          Anterior
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-700">
        Página {page} de {pageCount}
      </p>
      {page < pageCount ? (
        <Link to={href(page + 1)} className="admin-button-secondary" rel="next">
          Próxima
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
