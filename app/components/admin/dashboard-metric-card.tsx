import { compareWithPrevious, formatTrend, type Trend } from '~/lib/periods';

const TREND_COLOURS = {
  good: 'bg-green-100 text-green-800',
  bad: 'bg-red-100 text-red-800',
  neutral: 'bg-slate-100 text-slate-700',
} as const;

function trendColour(trend: Trend, higherIsBetter: boolean): string {
  if (trend.kind !== 'up' && trend.kind !== 'down') return TREND_COLOURS.neutral;
  return (trend.kind === 'up') === higherIsBetter ? TREND_COLOURS.good : TREND_COLOURS.bad;
}

/** What a trend is measured against, in the two ways the card says it. */
export interface Comparison {
  /** After a percentage: '+12% em relação ao período anterior'. */
  against: string;
  /** After 'novo' or '—': 'nada no período anterior'. */
  nothingBefore: string;
}

const PREVIOUS_PERIOD: Comparison = {
  against: 'em relação ao período anterior',
  nothingBefore: 'nada no período anterior',
};

export const PREVIOUS_MONTH_DAYS: Comparison = {
  against: 'em relação aos mesmos dias do mês anterior',
  nothingBefore: 'nada nos mesmos dias do mês anterior',
};

/**
 * One figure of the dashboard with its trend against the period before ('+12%', '−3%'; 'novo'
 * when there was nothing before, '—' when there is nothing in either).
 */
export function MetricCard({
  id,
  label,
  value,
  current,
  previous,
  comparison = PREVIOUS_PERIOD,
  higherIsBetter = true,
  note,
}: {
  id: string;
  label: string;
  /** The figure as shown ('R$ 1.234,56', '12'). */
  value: string;
  current: number;
  /** The same figure in the period it is compared with; without it, `note` is shown instead. */
  previous?: number;
  comparison?: Comparison;
  /** Pending orders going up is not good news: the colour says so. */
  higherIsBetter?: boolean;
  note?: string;
}) {
  const trend = previous === undefined ? null : compareWithPrevious(current, previous);
  return (
    <article aria-labelledby={`${id}-label`} className="admin-card flex flex-col gap-1">
      <h3 id={`${id}-label`} className="text-sm font-medium text-slate-600">
        {label}
      </h3>
      <p className="text-2xl font-bold break-words text-slate-900 tabular-nums" data-metric={id}>
        {value}
      </p>
      {trend ? (
        <p className="text-xs text-slate-600">
          <span
            className={`mr-1 inline-block rounded px-1.5 py-0.5 font-semibold ${trendColour(trend, higherIsBetter)}`}
            data-trend={id}
            // A dash alone says nothing when read aloud; the sentence after it does.
            aria-hidden={trend.kind === 'none' ? true : undefined}
          >
            {formatTrend(trend)}
          </span>
          {trend.kind === 'new' || trend.kind === 'none'
            ? comparison.nothingBefore
            : comparison.against}
        </p>
      ) : (
        note && <p className="text-xs text-slate-600">{note}</p>
      )}
    </article>
  );
}
