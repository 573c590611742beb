import { describe, expect, it } from 'vitest';

import {
  addDays,
  compareWithPrevious,
  dayCount,
  describeRange,
  formatTrend,
  isCalendarDay,
  MAX_PERIOD_DAYS,
  monthToDate,
  PERIOD_MESSAGES,
  previousRange,
  resolvePeriod,
  todayIn,
} from './periods';

const params = (query: string) => new URLSearchParams(query);

describe('todayIn', () => {
  it('answers the store calendar day, not the UTC one', () => {
    // 23:30 in São Paulo (UTC−3) is 02:30 UTC the next day.
    const lateEvening = new Date('2025-03-11T02:30:00Z');
    expect(todayIn('America/Sao_Paulo', lateEvening)).toBe('2025-03-10');
    expect(todayIn('UTC', lateEvening)).toBe('2025-03-11');
    expect(todayIn('America/Manaus', new Date('2025-03-11T03:30:00Z'))).toBe('2025-03-10');
  });

  it('follows the daylight-saving rules of the year asked about', () => {
    // São Paulo kept summer time (UTC−2) until February 2019.
    expect(todayIn('America/Sao_Paulo', new Date('2019-01-15T01:30:00Z'))).toBe('2019-01-14');
    expect(todayIn('America/Sao_Paulo', new Date('2019-01-15T02:30:00Z'))).toBe('2019-01-15');
  });
});

describe('calendar days', () => {
  it('accepts real days only', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2025-02-29')).toBe(false);
    expect(isCalendarDay('2025-13-01')).toBe(false);
    expect(isCalendarDay('2025-1-01')).toBe(false);
    expect(isCalendarDay('01/02/2025')).toBe(false);
    expect(isCalendarDay('1999-12-31')).toBe(false);
    expect(isCalendarDay('')).toBe(false);
  });

  it('adds and counts days across months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(dayCount({ from: '2024-01-01', to: '2024-12-31' })).toBe(366);
  });

  it('finds the period of equal length just before', () => {
    expect(previousRange({ from: '2025-03-10', to: '2025-03-10' })).toEqual({
      from: '2025-03-09',
      to: '2025-03-09',
    });
    expect(previousRange({ from: '2025-03-01', to: '2025-03-08' })).toEqual({
      from: '2025-02-21',
      to: '2025-02-28',
    });
  });
});

describe('resolvePeriod', () => {
  const today = '2025-03-10';

  it('defaults to today, also for an unknown period', () => {
    for (const query of ['', 'period=', 'period=semana', 'period=HOJE']) {
      expect(resolvePeriod(params(query), today)).toEqual({
        key: 'hoje',
        range: { from: today, to: today },
        previous: { from: '2025-03-09', to: '2025-03-09' },
        notice: null,
      });
    }
  });

  it('gives yesterday against the day before', () => {
    const period = resolvePeriod(params('period=ontem'), '2025-03-01');
    expect(period.range).toEqual({ from: '2025-02-28', to: '2025-02-28' });
    expect(period.previous).toEqual({ from: '2025-02-27', to: '2025-02-27' });
  });

  it('starts the last 7 days 7 days before today and runs through today (SPEC §9)', () => {
    const period = resolvePeriod(params('period=7dias'), today);
    expect(period.range).toEqual({ from: '2025-03-03', to: today });
    expect(period.previous).toEqual({ from: '2025-02-23', to: '2025-03-02' });
  });

  it('starts the month on day 1, against the same days of the previous month', () => {
    const period = resolvePeriod(params('period=mes'), today);
    expect(period.range).toEqual({ from: '2025-03-01', to: today });
    expect(period.previous).toEqual({ from: '2025-02-01', to: '2025-02-10' });
  });

  it('cuts the previous month at its last day, and crosses the year in January', () => {
    expect(monthToDate('2025-03-31').previous).toEqual({ from: '2025-02-01', to: '2025-02-28' });
    expect(monthToDate('2024-03-30').previous).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthToDate('2025-01-15')).toEqual({
      range: { from: '2025-01-01', to: '2025-01-15' },
      previous: { from: '2024-12-01', to: '2024-12-15' },
    });
  });

  it('takes a custom period with both ends included', () => {
    const period = resolvePeriod(
      params('period=personalizado&from=2025-02-01&to=2025-02-28'),
      today,
    );
    expect(period).toEqual({
      key: 'personalizado',
      range: { from: '2025-02-01', to: '2025-02-28' },
      previous: { from: '2025-01-04', to: '2025-01-31' },
      notice: null,
    });
  });

  it('falls back to today when a custom date is missing or not a day (SPEC §5)', () => {
    const cases = [
      ['period=personalizado', PERIOD_MESSAGES.missingDates],
      ['period=personalizado&from=2025-02-01', PERIOD_MESSAGES.missingDates],
      ['period=personalizado&from=&to=2025-02-01', PERIOD_MESSAGES.missingDates],
      ['period=personalizado&from=2025-02-30&to=2025-03-01', PERIOD_MESSAGES.invalidDates],
      ['period=personalizado&from=ontem&to=hoje', PERIOD_MESSAGES.invalidDates],
    ] as const;
    for (const [query, notice] of cases) {
      expect(resolvePeriod(params(query), today)).toEqual({
        key: 'personalizado',
        range: { from: today, to: today },
        previous: { from: '2025-03-09', to: '2025-03-09' },
        notice,
      });
    }
  });

  it('swaps a start after the end, and says so', () => {
    const period = resolvePeriod(
      params('period=personalizado&from=2025-03-05&to=2025-03-01'),
      today,
    );
    expect(period.range).toEqual({ from: '2025-03-01', to: '2025-03-05' });
    expect(period.notice).toBe(PERIOD_MESSAGES.swapped);
  });

  it('keeps the last days of a custom period that is too long', () => {
    const period = resolvePeriod(
      params('period=personalizado&from=2020-01-01&to=2025-03-10'),
      today,
    );
    expect(dayCount(period.range)).toBe(MAX_PERIOD_DAYS);
    expect(period.range.to).toBe('2025-03-10');
    expect(period.notice).toBe(PERIOD_MESSAGES.tooLong);
  });
});

describe('trends', () => {
  it('compares with the previous value as a rounded percentage', () => {
    expect(compareWithPrevious(112, 100)).toEqual({ kind: 'up', percent: 12 });
    expect(compareWithPrevious(97, 100)).toEqual({ kind: 'down', percent: 3 });
    expect(compareWithPrevious(1000, 1000)).toEqual({ kind: 'same', percent: 0 });
    expect(compareWithPrevious(1, 3)).toEqual({ kind: 'down', percent: 67 });
    expect(compareWithPrevious(0, 5)).toEqual({ kind: 'down', percent: 100 });
  });

  it('says new or nothing when there was nothing before', () => {
    expect(compareWithPrevious(5, 0)).toEqual({ kind: 'new' });
    expect(compareWithPrevious(0, 0)).toEqual({ kind: 'none' });
  });

  it('writes trends with a real minus sign', () => {
    expect(formatTrend({ kind: 'up', percent: 12 })).toBe('+12%');
    expect(formatTrend({ kind: 'down', percent: 3 })).toBe('−3%');
    expect(formatTrend({ kind: 'same', percent: 0 })).toBe('0%');
    expect(formatTrend({ kind: 'new' })).toBe('novo');
    expect(formatTrend({ kind: 'none' })).toBe('—');
  });

  it('describes ranges in pt-BR', () => {
    expect(describeRange({ from: '2025-03-05', to: '2025-03-05' })).toBe('em 05/03/2025');
    expect(describeRange({ from: '2025-03-01', to: '2025-03-05' })).toBe(
      'de 01/03/2025 a 05/03/2025',
    );
  });
});
