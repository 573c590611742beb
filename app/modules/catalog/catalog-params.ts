import { pageNumber, PAGE_PARAM, withPage } from '~/lib/pagination';
import { parseReais } from '~/lib/reais';

import type { CatalogQuery, CatalogSort, Category, OptionFilter } from './types';

export type CatalogView = 'grid' | 'list';

/** A catalogue state as links carry it: the category by its slug, the address shoppers see. */
export type CatalogState = Omit<CatalogQuery, 'perPage'> & { categorySlug?: string };

export interface CatalogParams {
  query: CatalogQuery & { sort: CatalogSort; page: number; categorySlug?: string };
  /** What was wrong with the URL and what was done instead, in pt-BR, for the shopper. */
  notices: string[];
  view: CatalogView;
  /**
   * Set when the category came by its id (an old link): the same query string with the
   * category's slug instead, for a permanent redirect.
   */
  redirectSearch?: string;
}

/** The URL words for each sort (Portuguese, so shared links read naturally). */
export const SORT_PARAMS: Record<CatalogSort, string> = {
  relevance: 'relevancia',
  newest: 'recentes',
  'price-asc': 'menor-preco',
  'price-desc': 'maior-preco',
  name: 'nome',
};

export const SORT_LABELS: Record<CatalogSort, string> = {
  relevance: 'Mais relevantes',
  newest: 'Mais recentes',
  'price-asc': 'Menor preço',
  'price-desc': 'Maior preço',
  name: 'Nome (A-Z)',
};

/** A search is ranked by relevance unless the shopper picks another order; the rest is newest first. */
export function defaultSort(q: string | null | undefined): CatalogSort {
  return q?.trim() ? 'relevance' : 'newest';
}

/** The orders a sort field offers: relevance only ranks something when there is a search. */
export function sortOptions(q: string | null | undefined): CatalogSort[] {
  const sorts = Object.keys(SORT_PARAMS) as CatalogSort[];
  return q?.trim() ? sorts : sorts.filter((sort) => sort !== 'relevance');
}

const VIEW_PARAMS: Record<CatalogView, string> = { grid: 'grade', list: 'lista' };

export const MAX_QUERY_LENGTH = 100;

/**
 * The option filter's parameter, once per value chosen, as 'Option:Value'
 * (`?opcao=Tamanho:G&opcao=Tamanho:GG&opcao=Cor:Azul`): what a GET form of checkboxes sends.
 */
export const OPTION_PARAM = 'opcao';
/** Values chosen at once, at most: each is a condition of the listing's query. */
export const MAX_OPTION_VALUES = 20;
const MAX_OPTION_TEXT = 60;

/** The parameter value of one option value: 'Tamanho:G'. */
export function optionParam(name: string, value: string): string {
  return `${name}:${value}`;
}

function parseOptions(raw: string[], notices: string[]): OptionFilter | undefined {
  const options: OptionFilter = {};
  let taken = 0;
  for (const entry of raw) {
    const text = entry.replace(/\p{Cc}/gu, ' ');
    const colon = text.indexOf(':');
    const name = colon < 0 ? '' : text.slice(0, colon).trim();
    const value = colon < 0 ? '' : text.slice(colon + 1).trim();
    if (
      name === '' ||
      value === '' ||
      name.length > MAX_OPTION_TEXT ||
      value.length > MAX_OPTION_TEXT
    ) {
      if (text.trim() !== '')
        notices.push(`O filtro ${quoted(text.trim())} não existe e foi ignorado.`);
      continue;
    }
    const values = (options[name] ??= []);
    if (values.includes(value)) continue;
    if (taken === MAX_OPTION_VALUES) {
      notices.push(
        `Só ${MAX_OPTION_VALUES} opções podem ser filtradas ao mesmo tempo; as demais foram ignoradas.`,
      );
      break;
    }
    values.push(value);
    taken += 1;
  }
  for (const name of Object.keys(options)) if (options[name]!.length === 0) delete options[name];
  return Object.keys(options).length > 0 ? options : undefined;
}

function byParam<T extends string>(params: Record<T, string>, value: string): T | undefined {
  return (Object.keys(params) as T[]).find((key) => params[key] === value);
}

/** A value quoted back to the shopper, short enough not to flood the page. */
function quoted(value: string): string {
  return `“${value.length > 30 ? `${value.slice(0, 30)}…` : value}”`;
}

/** Cents as a price field shows them: 123456 → "1234,56", 1000 → "10". */
export function formatReais(cents: number): string {
  const reais = Math.floor(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(reais) : `${reais},${String(rest).padStart(2, '0')}`;
}

function parsePrice(
  raw: string | null,
  label: 'mínimo' | 'máximo',
  notices: string[],
): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const result = parseReais(raw);
  if ('cents' in result) return result.cents;
  const reason = {
    'not-a-number': 'não é um número',
    negative: 'não pode ser negativo',
    'too-high': 'é alto demais',
  }[result.error];
  notices.push(`O preço ${label} ${quoted(raw)} ${reason} e foi ignorado.`);
  return undefined;
}

/**
 * Reads the /products query string. Nothing in it can fail the page: a value that makes no
 * sense is dropped (or corrected) and the shopper is told why.
 */
export function parseCatalogParams(
  searchParams: URLSearchParams,
  options: { categories: readonly Category[]; perPage: number },
): CatalogParams {
  const notices: string[] = [];
  const query: CatalogParams['query'] = { perPage: options.perPage, sort: 'newest', page: 1 };
  let redirectSearch: string | undefined;

  // Control characters are no text to search for (and PostgreSQL refuses a NUL in a string).
  const q = (searchParams.get('q') ?? '')
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ');
  if (q.length > MAX_QUERY_LENGTH) {
    notices.push(`A busca foi encurtada para ${MAX_QUERY_LENGTH} caracteres.`);
  }
  if (q) query.q = q.slice(0, MAX_QUERY_LENGTH).trim();

  const categoryParam = searchParams.get('categoria')?.trim().toLowerCase();
  if (categoryParam) {
    const bySlug = options.categories.find((candidate) => candidate.slug === categoryParam);
    const category =
      bySlug ??
      options.categories.find((candidate) => candidate.id.toLowerCase() === categoryParam);
    if (category) {
      query.categoryId = category.id;
      query.categorySlug = category.slug;
      if (!bySlug) {
        const params = new URLSearchParams(searchParams);
        params.set('categoria', category.slug);
        redirectSearch = `?${params.toString()}`;
      }
    } else {
      notices.push('A categoria escolhida não foi encontrada; mostrando todas as categorias.');
    }
  }

  const minCents = parsePrice(searchParams.get('min'), 'mínimo', notices);
  const maxCents = parsePrice(searchParams.get('max'), 'máximo', notices);
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) {
    query.minCents = maxCents;
    query.maxCents = minCents;
    notices.push('O preço mínimo era maior que o máximo; os dois foram trocados.');
  } else {
    if (minCents !== undefined) query.minCents = minCents;
    if (maxCents !== undefined) query.maxCents = maxCents;
  }

  const chosen = parseOptions(searchParams.getAll(OPTION_PARAM), notices);
  if (chosen) query.options = chosen;

  query.sort = defaultSort(query.q);
  const sortParam = searchParams.get('ordem')?.trim();
  if (sortParam) {
    const sort = byParam(SORT_PARAMS, sortParam);
    // Relevance without a search (the search was cleared) quietly means the default order.
    if (sort && sortOptions(query.q).includes(sort)) query.sort = sort;
    else if (!sort) {
      const fallback = query.q ? 'os mais relevantes' : 'os mais recentes';
      notices.push(`A ordem ${quoted(sortParam)} não existe; mostrando ${fallback}.`);
    }
  }

  const pageParam = searchParams.get(PAGE_PARAM)?.trim();
  if (pageParam) {
    const page = pageNumber(pageParam);
    if (page) query.page = page;
    else notices.push(`A página ${quoted(pageParam)} não existe; mostrando a página 1.`);
  }

  let view: CatalogView = 'grid';
  const viewParam = searchParams.get('vista')?.trim();
  if (viewParam) {
    const chosen = byParam(VIEW_PARAMS, viewParam);
    if (chosen) view = chosen;
    else notices.push(`A visualização ${quoted(viewParam)} não existe; mostrando em grade.`);
  }

  return redirectSearch === undefined
    ? { query, notices, view }
    : { query, notices, view, redirectSearch };
}

/**
 * The deepest catalogue page served. A page is read by skipping every product before it, so
 * deeper pages would cost more and more; shoppers narrow a long list with the search, the
 * filters or the order long before (ADR 015).
 */
export const CATALOGUE_MAX_PAGE = 100;

/**
 * What the shopper is told about the page shown, if anything: that the page asked for is past
 * the last one (the last one is shown), or that the list stops at CATALOGUE_MAX_PAGE before the
 * products run out.
 */
export function pageNotice(
  asked: number,
  shown: { page: number; pageCount: number; total: number },
  perPage: number,
): string | undefined {
  const { page, pageCount, total } = shown;
  if (page === pageCount && total > pageCount * perPage) {
    const where =
      asked > page
        ? `A lista vai até a página ${pageCount}; mostrando a página ${pageCount}.`
        : `A lista vai até esta página.`;
    return `${where} Para ver os demais produtos, use a busca, os filtros ou outra ordem.`;
  }
  if (asked > pageCount)
    return `A página ${asked} não existe; mostrando a última página (${pageCount}).`;
  return undefined;
}

/**
 * The query string of a catalogue state, with only meaningful values (defaults left out), so
 * links built from it are short, shareable and never carry a value the page had to ignore.
 */
export function catalogSearch(query: CatalogState, view: CatalogView = 'grid'): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  // A state without the slug still links somewhere right: the page redirects an id to the slug.
  const category = query.categorySlug ?? query.categoryId;
  if (category) params.set('categoria', category);
  if (query.minCents !== undefined) params.set('min', formatReais(query.minCents));
  if (query.maxCents !== undefined) params.set('max', formatReais(query.maxCents));
  for (const [name, values] of Object.entries(query.options ?? {})) {
    for (const value of values) params.append(OPTION_PARAM, optionParam(name, value));
  }
  if (
    query.sort &&
    query.sort !== defaultSort(query.q) &&
    sortOptions(query.q).includes(query.sort)
  )
    params.set('ordem', SORT_PARAMS[query.sort]);
  withPage(params, query.page ?? 1);
  if (view !== 'grid') params.set('vista', VIEW_PARAMS[view]);
  const search = params.toString();
  return search ? `?${search}` : '';
}
