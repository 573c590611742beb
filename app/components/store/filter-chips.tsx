import { Link } from 'react-router';

import { CloseIcon } from '~/components/ui/icons';
import { formatCents } from '~/lib/money';
import {
  catalogSearch,
  type CatalogParams,
  type CatalogView,
  type Category,
} from '~/modules/catalog';

type Query = CatalogParams['query'];

interface Chip {
  label: string;
  /** The catalogue without this filter, back on its first page. */
  without: Query;
}

function priceLabel(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `De ${formatCents(min)} a ${formatCents(max)}`;
  if (min !== undefined) return `A partir de ${formatCents(min)}`;
  return `Até ${formatCents(max ?? 0)}`;
}

/** What narrows the results now, each one a chip whose tap (a plain link) takes it away. */
export function filterChips(query: Query, categories: readonly Category[]): Chip[] {
  const firstPage = { ...query, page: 1 };
  const chips: Chip[] = [];
  if (query.q)
    chips.push({ label: `Busca: “${query.q}”`, without: { ...firstPage, q: undefined } });
  if (query.categoryId) {
    const category = categories.find(({ id }) => id === query.categoryId);
    chips.push({
      label: category?.name ?? 'Categoria',
      without: { ...firstPage, categoryId: undefined, categorySlug: undefined },
    });
  }
  if (query.minCents !== undefined || query.maxCents !== undefined) {
    chips.push({
      label: priceLabel(query.minCents, query.maxCents),
      without: { ...firstPage, minCents: undefined, maxCents: undefined },
    });
  }
  for (const [name, values] of Object.entries(query.options ?? {})) {
    for (const value of values) {
      const options = { ...query.options, [name]: values.filter((other) => other !== value) };
      if (options[name]!.length === 0) delete options[name];
      chips.push({
        label: `${name}: ${value}`,
        without: {
          ...firstPage,
          options: Object.keys(options).length > 0 ? options : undefined,
        },
      });
    }
  }
  return chips;
}

/**
 * The filters in use, shown above the results on every screen: on a phone the sheet that set
 * them is closed, and a count on its button does not say what it counts.
 */
export function FilterChips({
  query,
  categories,
  view,
}: {
  query: Query;
  categories: readonly Category[];
  view: CatalogView;
}) {
  const chips = filterChips(query, categories);
  if (chips.length === 0) return null;
  const link = (state: Query) => `/products${catalogSearch(state, view)}`;
  return (
    <ul
      aria-label="Filtros em uso"
      className="flex flex-wrap items-center gap-2"
      data-testid="filter-chips"
    >
      {chips.map((chip) => (
        <li key={chip.label}>
          <Link
            to={link(chip.without)}
            aria-label={`Remover filtro: ${chip.label}`}
            className="inline-flex min-h-11 items-center gap-1 rounded-full border border-card-border bg-card px-3 text-sm hover:border-current"
          >
            {chip.label}
            <CloseIcon className="h-4 w-4" />
          </Link>
        </li>
      ))}
      {chips.length > 1 ? (
        <li>
          <Link
            to={link({ perPage: query.perPage, sort: query.sort, page: 1 })}
            className="text-sm text-link underline"
          >
            Limpar tudo
          </Link>
        </li>
      ) : null}
    </ul>
  );
}
