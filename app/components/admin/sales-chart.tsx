import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';

import { formatCents } from '~/lib/money';
import { formatDay } from '~/lib/periods';

export interface ChartDay {
  /** YYYY-MM-DD on the store's calendar. */
  day: string;
  cents: number;
}

const BLUE = '#1d4ed8';
const SLATE = '#475569';
const GRID = '#e2e8f0';
// Points help to read a few days; on a long period they only crowd the line.
const MAX_DAYS_WITH_POINTS = 62;

const compactReais = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  notation: 'compact',
  maximumFractionDigits: 1,
});

const shortDay = (day: string) => formatDay(day).slice(0, 5);
const heightFor = (width: number) => (width < 500 ? 220 : 280);

function chartOptions(days: readonly ChartDay[], width: number): uPlot.Options {
  return {
    width,
    height: heightFor(width),
    // Days are positions 0…n−1: labels come from the days themselves, in no time zone at all.
    scales: {
      x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    series: [
      {
        label: 'Dia',
        value: (_u, index) => (index == null || !days[index] ? '—' : formatDay(days[index].day)),
      },
      {
        label: 'Vendas',
        stroke: BLUE,
        width: 2,
        fill: 'rgba(29, 78, 216, 0.12)',
        points: { show: days.length <= MAX_DAYS_WITH_POINTS, size: 6, fill: BLUE },
        value: (_u, reais) => (reais == null ? '—' : formatCents(Math.round(reais * 100))),
      },
    ],
    axes: [
      {
        stroke: SLATE,
        grid: { show: false },
        space: 48,
        incrs: [1, 2, 3, 5, 7, 10, 14, 15, 30, 60, 90, 180],
        values: (_u, splits) =>
          splits.map((index) =>
            Number.isInteger(index) && days[index] ? shortDay(days[index].day) : '',
          ),
      },
      {
        stroke: SLATE,
        grid: { stroke: GRID, width: 1 },
        size: 84,
        values: (_u, splits) => splits.map((reais) => compactReais.format(reais)),
      },
    ],
    // Dragging would zoom: surprising for staff on a phone, and the table has every figure.
    cursor: { drag: { x: false, y: false } },
    legend: { show: true },
  };
}

/**
 * Revenue per day drawn with uPlot, loaded only here and only in the browser (it needs a
 * window). It is a picture of the numbers that the dashboard also gives as text and table, so
 * it is hidden from screen readers.
 */
export function SalesChart({ days }: { days: readonly ChartDay[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    const target = box.current;
    if (!target) return;
    let cancelled = false;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    import('uplot').then(
      ({ default: UPlot }) => {
        if (cancelled) return;
        const data: uPlot.AlignedData = [
          days.map((_, index) => index),
          days.map((day) => day.cents / 100),
        ];
        chart = new UPlot(chartOptions(days, target.clientWidth), data, target);
        observer = new ResizeObserver(() => {
          const width = target.clientWidth;
          if (chart && width > 0 && width !== chart.width) {
            chart.setSize({ width, height: heightFor(width) });
          }
        });
        observer.observe(target);
        setState('ready');
      },
      () => {
        if (!cancelled) setState('failed');
      },
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days]);

  return (
    <div aria-hidden="true" className="min-h-[220px] min-w-0 sm:min-h-[280px]">
      {state !== 'ready' && (
        <p className="flex h-[220px] items-center justify-center text-sm text-slate-600 sm:h-[280px]">
          {state === 'failed' ? 'Não foi possível desenhar o gráfico.' : 'Carregando gráfico...'}
        </p>
      )}
      <div ref={box} className="sales-chart w-full overflow-hidden" />
    </div>
  );
}
