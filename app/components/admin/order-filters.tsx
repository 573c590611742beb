import { Form, Link, useNavigation } from 'react-router';

import { ORDER_STATUSES } from '~/modules/orders';
import {
  ADMIN_STATUS_LABELS,
  hasOrderFilters,
  MAX_SEARCH_LENGTH,
  orderFiltersQuery,
  type OrderFilters,
} from '~/modules/orders/index.admin';

/**
 * The list's filters as a GET form: the URL carries them (links, reloads and the dashboard's
 * 'Relatórios' button land on the same list), and it works before JavaScript loads.
 */
export function OrderFiltersForm({ filters }: { filters: OrderFilters }) {
  const navigation = useNavigation();
  const filtering =
    navigation.state === 'loading' &&
    navigation.location.pathname === '/admin/orders' &&
    !navigation.formMethod;
  const exportHref = `/admin/orders/export.csv${orderFiltersQuery(filters, 1)}`;
  return (
    <Form
      method="get"
      action="/admin/orders"
      role="search"
      aria-label="Filtrar pedidos"
      className="admin-card grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto_auto] lg:items-end"
    >
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="orders-q" className="admin-label">
          Buscar pedido
        </label>
        <input
          id="orders-q"
          name="q"
          type="search"
          defaultValue={filters.q}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder="Número, nome, e-mail ou CPF"
          className="admin-input"
        />
      </div>
      <div>
        <label htmlFor="orders-status" className="admin-label">
          Status
        </label>
        <select
          id="orders-status"
          name="status"
          defaultValue={filters.status ?? ''}
          className="admin-input"
        >
          <option value="">Todos</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {ADMIN_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1">
        <legend className="sr-only">Período do pedido</legend>
        <div>
          <label htmlFor="orders-from" className="admin-label">
            De
          </label>
          <input
            id="orders-from"
            name="from"
            type="date"
            defaultValue={filters.from ?? ''}
            className="admin-input"
          />
        </div>
        <div>
          <label htmlFor="orders-to" className="admin-label">
            Até
          </label>
          <input
            id="orders-to"
            name="to"
            type="date"
            defaultValue={filters.to ?? ''}
            className="admin-input"
          />
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-1">
        <button type="submit" className="admin-button-primary" disabled={filtering}>
          {filtering ? 'Filtrando...' : 'Filtrar'}
        </button>
        {hasOrderFilters(filters) ? (
          <Link to="/admin/orders" className="admin-button-secondary">
            Limpar
          </Link>
        ) : null}
        <a href={exportHref} download className="admin-button-secondary">
          Exportar CSV
        </a>
      </div>
    </Form>
  );
}
