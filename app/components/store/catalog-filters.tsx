import { useEffect, useRef, useState } from 'react';
import { Form, Link, useLocation, useNavigate } from 'react-router';

import { useSettings } from '~/components/store/store-data';
import { CloseIcon, FilterIcon } from '~/components/ui/icons';
import { useOnChange } from '~/lib/use-on-change';
import {
  defaultSort,
  formatReais,
  OPTION_PARAM,
  optionParam,
  SORT_LABELS,
  SORT_PARAMS,
  sortOptions,
  type CatalogParams,
  type Category,
  type CatalogView,
  type OptionFacet,
} from '~/modules/catalog';

const PANEL_ID = 'catalog-filters';
const TITLE = 'Filtrar e ordenar';
const TYPED_FIELDS = new Set(['q', 'min', 'max']);
const TYPING_PAUSE_MS = 500;

type Query = CatalogParams['query'];

/**
 * The filter values as a URL: blank fields and the default order are left out, so a link
 * someone shares reads `/products?q=fone` rather than a row of empty parameters.
 */
function filterUrl(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value !== 'string' || value.trim() === '') continue;
    // The option filter's checkboxes share one name, a parameter per value ticked.
    params.append(name, value.trim());
  }
  // An order the new search makes the default (or meaningless) adds nothing to the link.
  const ordem = params.get('ordem');
  const q = params.get('q');
  if (
    ordem === SORT_PARAMS[defaultSort(q)] ||
    (ordem === SORT_PARAMS.relevance && !sortOptions(q).includes('relevance'))
  ) {
    params.delete('ordem');
  }
  const search = params.toString();
  return search ? `/products?${search}` : '/products';
}

/** A price typed the Brazilian way ("1.234,56"); the server reads and corrects it. */
function PriceField({ name, label, value }: { name: string; label: string; value?: string }) {
  return (
    <div className="flex flex-col gap-1 lg:col-span-2">
      <label htmlFor={`catalog-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={`catalog-${name}`}
        name={name}
        inputMode="decimal"
        autoComplete="off"
        defaultValue={value}
        placeholder="0,00"
        maxLength={20}
        className="field"
      />
    </div>
  );
}

/** Filters in use, shown on the button that opens them (the search is in the heading). */
function activeFilters(query: Query): number {
  return (
    (query.categoryId ? 1 : 0) +
    (query.minCents !== undefined || query.maxCents !== undefined ? 1 : 0) +
    Object.values(query.options ?? {}).reduce((sum, values) => sum + values.length, 0)
  );
}

/**
 * One option's values as checkboxes (several may be ticked: any of them matches), each with how
 * many products of the result have it in stock.
 */
function OptionField({ facet, index }: { facet: OptionFacet; index: number }) {
  return (
    <fieldset className="col-span-2 flex flex-col gap-1" data-testid="option-filter">
      <legend className="mb-1 text-sm font-medium">{facet.name}</legend>
      <div className="flex flex-wrap gap-2">
        {facet.values.map((entry, n) => {
          const id = `catalog-option-${index}-${n}`;
          return (
            <label
              key={entry.value}
              htmlFor={id}
              className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-button border border-card-border px-3 text-sm has-checked:border-current has-checked:font-semibold"
            >
              <input
                id={id}
                type="checkbox"
                name={OPTION_PARAM}
                value={optionParam(facet.name, entry.value)}
                defaultChecked={entry.selected}
                className="h-4 w-4"
              />
              {entry.value} <span className="text-product-description">({entry.count})</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** Opens the filters on phones and tablets; from 1024 px they stand in a column instead. */
export function CatalogFiltersButton({ query }: { query: Query }) {
  const active = activeFilters(query);
  return (
    <button
      type="button"
      popoverTarget={PANEL_ID}
      className="btn btn-outline gap-2 lg:hidden"
      data-testid="catalog-filters-button"
    >
      <FilterIcon className="h-5 w-5" />
      {TITLE}
      {active > 0 ? (
        <span className="btn-primary rounded-full px-2 text-xs font-semibold">
          {active}
          <span className="sr-only">{active === 1 ? ' filtro ativo' : ' filtros ativos'}</span>
        </span>
      ) : null}
    </button>
  );
}

/**
 * The catalogue's GET form. Below 1024 px it is a bottom sheet built on the HTML popover: the
 * browser opens it from 'Filtrar e ordenar', closes it on Escape or a tap outside and gives
 * focus back to the button, all before JavaScript loads; the filter button sends the form. From 1024 px
 * it is a plain column beside the results, where a change applies at once.
 */
export function CatalogFilters({
  categories,
  facets,
  query,
  view,
}: {
  categories: readonly Category[];
  /** The option values the result offers to narrow it to. */
  facets: readonly OptionFacet[];
  query: Query;
  view: CatalogView;
}) {
  const settings = useSettings();
  const navigate = useNavigate();
  const { search } = useLocation();
  const panel = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const typing = useRef(false);
  // A dialog only while it is open as a sheet; the desktop column is part of the page.
  const [open, setOpen] = useState(false);

  const sorts = sortOptions(query.q);
  const values: Record<string, string> = {
    q: query.q ?? '',
    categoria: query.categorySlug ?? '',
    min: query.minCents === undefined ? '' : formatReais(query.minCents),
    max: query.maxCents === undefined ? '' : formatReais(query.maxCents),
    // The default order is sent blank, so a new search (or none) gets its own default.
    ordem: query.sort === defaultSort(query.q) ? '' : SORT_PARAMS[query.sort],
  };
  const valuesKey = JSON.stringify(values);

  // Back/forward and corrected values (a swapped price range) change the URL under the form;
  // the fields follow it, except one the shopper is still typing in.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    for (const [name, value] of Object.entries(JSON.parse(valuesKey) as Record<string, string>)) {
      const field = form.elements.namedItem(name);
      if (
        (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) &&
        !(typing.current && field === document.activeElement)
      ) {
        field.value = value;
      }
    }
  }, [valuesKey]);

  useEffect(() => () => clearTimeout(typingTimer.current), []);

  // 'Limpar filtros' and Back/forward land on new results: the sheet gets out of their way. Not
  // when React takes over the page: the sheet hydrates on its own (ADR 023), and the shopper
  // may have opened it before (the browser opens it without scripts); then it is a dialog.
  useOnChange(search, () => {
    if (panel.current?.matches(':popover-open')) panel.current.hidePopover();
  });
  useEffect(() => {
    if (panel.current?.matches(':popover-open')) setOpen(true);
  }, []);

  const inSheet = () => panel.current?.matches(':popover-open') ?? false;

  function apply(replace: boolean) {
    clearTimeout(typingTimer.current);
    typing.current = false;
    if (formRef.current)
      navigate(filterUrl(formRef.current), { replace, preventScrollReset: true });
  }

  return (
    <div
      ref={panel}
      id={PANEL_ID}
      popover="auto"
      role={open ? 'dialog' : undefined}
      aria-labelledby={open ? `${PANEL_ID}-title` : undefined}
      tabIndex={-1}
      onToggle={(event) => {
        const opened = event.newState === 'open';
        setOpen(opened);
        if (opened) panel.current?.focus();
      }}
      className="inset-x-0 top-auto bottom-0 m-0 max-h-[85dvh] w-full max-w-none overflow-y-auto rounded-t-card bg-card p-4 text-ink shadow-xl transition-transform duration-200 outline-none backdrop:bg-black/50 starting:open:translate-y-full lg:static lg:block lg:max-h-none lg:overflow-visible lg:rounded-card lg:border lg:border-card-border lg:shadow-none lg:transition-none"
    >
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id={`${PANEL_ID}-title`} className="font-heading text-lg font-bold">
          {TITLE}
        </h2>
        <button
          type="button"
          popoverTarget={PANEL_ID}
          popoverTargetAction="hide"
          className="inline-flex h-11 w-11 items-center justify-center rounded-button text-icon lg:hidden"
          aria-label="Fechar filtros"
        >
          <CloseIcon />
        </button>
      </div>
      <Form
        ref={formRef}
        method="get"
        action="/products"
        role="search"
        aria-label="Filtrar produtos"
        className="grid grid-cols-2 gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          apply(false);
          if (inSheet()) panel.current?.hidePopover();
        }}
        onChange={(event) => {
          // In the sheet nothing moves until the filter button: the results behind it stay put.
          if (inSheet()) return;
          const target: EventTarget = event.target;
          if (
            target instanceof HTMLSelectElement ||
            (target instanceof HTMLInputElement && target.type === 'checkbox')
          ) {
            apply(false);
          } else if (target instanceof HTMLInputElement && TYPED_FIELDS.has(target.name)) {
            clearTimeout(typingTimer.current);
            // Refining a search already in the URL replaces that entry, so Back does not
            // step through every pause in typing.
            const replace = values[target.name] !== '';
            typing.current = true;
            typingTimer.current = setTimeout(() => apply(replace), TYPING_PAUSE_MS);
          }
        }}
      >
        <div className="col-span-2 flex flex-col gap-1">
          <label htmlFor="catalog-q" className="text-sm font-medium">
            Buscar
          </label>
          <input
            id="catalog-q"
            type="search"
            name="q"
            defaultValue={values.q}
            placeholder={settings.search_placeholder_text}
            maxLength={200}
            className="field"
          />
        </div>
        <div className="col-span-2 flex flex-col gap-1">
          <label htmlFor="catalog-category" className="text-sm font-medium">
            Categoria
          </label>
          <select
            id="catalog-category"
            name="categoria"
            defaultValue={values.categoria}
            className="field"
          >
            <option value="">Todas as categorias</option>
            {categories.map((category) => (
              <option key={category.id} value={category.slug}>
                {category.name}
              </option>
            ))}
          </select>
        </div>
        <PriceField name="min" label="Preço mínimo (R$)" value={values.min} />
        <PriceField name="max" label="Preço máximo (R$)" value={values.max} />
        <div className="col-span-2 flex flex-col gap-1">
          <label htmlFor="catalog-sort" className="text-sm font-medium">
            Ordenar por
          </label>
          <select id="catalog-sort" name="ordem" defaultValue={values.ordem} className="field">
            {sorts.map((sort) => (
              <option key={sort} value={sort === defaultSort(query.q) ? '' : SORT_PARAMS[sort]}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
        {/* Keyed by the choice, so Back/forward ticks the boxes of the URL shown. */}
        {facets.map((facet, index) => (
          <OptionField
            key={`${facet.name}:${JSON.stringify(query.options?.[facet.name] ?? [])}`}
            facet={facet}
            index={index}
          />
        ))}
        {view === 'list' ? <input type="hidden" name="vista" value="lista" /> : null}
        <div className="sticky bottom-0 col-span-2 -mx-4 -mb-4 flex gap-2 bg-card p-4 lg:static lg:m-0 lg:flex-col lg:p-0">
          <button type="submit" className="btn btn-primary flex-1 lg:flex-none">
            {settings.filter_text}
          </button>
          <Link to="/products" className="btn btn-outline flex-1 lg:flex-none">
            {settings.clear_filters_text}
          </Link>
        </div>
      </Form>
    </div>
  );
}
