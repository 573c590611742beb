import { Form, Link, useNavigation } from 'react-router';

import { ADMIN_FORM } from './form-look';
import { FormField, SubmitButton } from '~/components/ui/form';
import { ORDER_STATUSES } from '~/modules/orders';
import {
  ADMIN_STATUS_LABELS,
  hasOrderFilters,
  MAX_COUPON_LENGTH,
  MAX_SEARCH_LENGTH,
  orderFiltersQuery,
  type OrderFilters,
} from '~/modules/orders/index.admin';

/**
 * The list's filters as a GET form: the URL carries them (links, reloads and the dashboard's
 * status panel land on the same list), and it works before JavaScript loads.
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
      className="admin-card grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto_auto] lg:items-end"
    >
      <FormField
        look={ADMIN_FORM}
        idPrefix="orders"
        name="q"
        label="Buscar pedido"
        className="sm:col-span-2 lg:col-span-1"
      >
        {(control) => (
          <input
            {...control}
            type="search"
            defaultValue={filters.q}
            maxLength={MAX_SEARCH_LENGTH}
            placeholder="Número, nome, e-mail ou CPF"
            className="admin-input"
          />
        )}
      </FormField>
      <FormField look={ADMIN_FORM} idPrefix="orders" name="status" label="Status">
        {(control) => (
          <select {...control} defaultValue={filters.status ?? ''} className="admin-input">
            <option value="">Todos</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {ADMIN_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField look={ADMIN_FORM} idPrefix="orders" name="coupon" label="Cupom">
        {(control) => (
          <input
            {...control}
            defaultValue={filters.coupon}
            maxLength={MAX_COUPON_LENGTH}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="Código"
            className="admin-input uppercase"
          />
        )}
      </FormField>
      <fieldset className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1">
        <legend className="sr-only">Período do pedido</legend>
        <FormField look={ADMIN_FORM} idPrefix="orders" name="from" label="De">
          {(control) => (
            <input
              {...control}
              type="date"
              defaultValue={filters.from ?? ''}
              className="admin-input"
            />
          )}
        </FormField>
        <FormField look={ADMIN_FORM} idPrefix="orders" name="to" label="Até">
          {(control) => (
            <input
              {...control}
              type="date"
              defaultValue={filters.to ?? ''}
              className="admin-input"
            />
          )}
        </FormField>
      </fieldset>
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-1">
        <SubmitButton busy={filtering} busyLabel="Filtrando..." className="admin-button-primary">
          Filtrar
        </SubmitButton>
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
