import { Form, Link } from 'react-router';

import { ADMIN_FORM } from './form-look';
import { FormField, SubmitButton } from '~/components/ui/form';
import {
  describeRange,
  PERIOD_KEYS,
  PERIOD_LABELS,
  type DayRange,
  type PeriodKey,
} from '~/lib/periods';

function periodSearch(key: PeriodKey, range: DayRange): string {
  // 'Personalizado' starts from the days on screen, so choosing it changes nothing until the
  // dates are changed.
  const params: Record<string, string> =
    key === 'personalizado' ? { period: key, from: range.from, to: range.to } : { period: key };
  return `?${new URLSearchParams(params)}`;
}

/**
 * The period buttons (links: each period has its own address, to share or reload), the two
 * dates of 'Personalizado', and which days are shown against which.
 */
export function DashboardPeriodFilter({
  period,
  busy,
}: {
  period: { key: PeriodKey; range: DayRange; previous: DayRange; notice: string | null };
  busy: boolean;
}) {
  return (
    <section aria-label="Período" className="space-y-3">
      <ul className="flex flex-wrap gap-2">
        {PERIOD_KEYS.map((key) => {
          const active = key === period.key;
          return (
            <li key={key}>
              <Link
                to={periodSearch(key, period.range)}
                aria-current={active ? 'page' : undefined}
                className={active ? 'admin-button-primary' : 'admin-button-secondary'}
              >
                {PERIOD_LABELS[key]}
              </Link>
            </li>
          );
        })}
      </ul>
      {period.key === 'personalizado' && (
        <Form
          method="get"
          action="/admin"
          // New defaults whenever the period shown changes.
          key={`${period.range.from}/${period.range.to}`}
          className="flex flex-wrap items-end gap-3"
        >
          <input type="hidden" name="period" value="personalizado" />
          <FormField
            look={ADMIN_FORM}
            idPrefix="periodo"
            name="from"
            label="Data inicial"
            className="w-full sm:w-auto"
          >
            {(control) => (
              <input
                {...control}
                type="date"
                required
                defaultValue={period.range.from}
                className="admin-input"
              />
            )}
          </FormField>
          <FormField
            look={ADMIN_FORM}
            idPrefix="periodo"
            name="to"
            label="Data final"
            className="w-full sm:w-auto"
          >
            {(control) => (
              <input
                {...control}
                type="date"
                required
                defaultValue={period.range.to}
                className="admin-input"
              />
            )}
          </FormField>
          <SubmitButton
            busy={busy}
            busyLabel="Aplicando..."
            className="admin-button-primary w-full sm:w-auto"
          >
            Aplicar
          </SubmitButton>
        </Form>
      )}
      {period.notice && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {period.notice}
        </p>
      )}
      <p className="text-sm text-slate-600">
        Mostrando os pedidos feitos {describeRange(period.range)}, comparados com os feitos{' '}
        {describeRange(period.previous)}.
      </p>
    </section>
  );
}
