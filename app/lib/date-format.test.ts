import { describe, expect, it } from 'vitest';

import { dateFormat, formatCalendarDay, formatDate, formatDateTime } from './date-format';

// 02:30 UTC on 11 March is still 10 March in São Paulo (UTC−3).
const MOMENT = new Date('2025-03-11T02:30:00Z');
const SP = 'America/Sao_Paulo';

describe('date-format', () => {
  it('writes a moment on the store’s calendar and clock', () => {
    expect(formatDate(MOMENT, SP)).toBe('10/03/2025');
    expect(formatDate(MOMENT, 'UTC')).toBe('11/03/2025');
    expect(formatDate(MOMENT, SP, 'long')).toBe('10 de março de 2025');
    expect(formatDateTime(MOMENT, SP)).toBe('10/03/2025 às 23:30');
    expect(formatDateTime(MOMENT, SP, { zone: true })).toBe(
      '10/03/2025 às 23:30 (Horário Padrão de Brasília)',
    );
  });

  it('writes a calendar day whatever the zone, with or without its year', () => {
    expect(formatCalendarDay('2026-12-04')).toBe('sexta-feira, 4 de dezembro de 2026');
    expect(formatCalendarDay('2026-12-03', { year: false })).toBe('quinta-feira, 3 de dezembro');
  });

  it('makes each formatter once', () => {
    expect(dateFormat('pt-BR', { dateStyle: 'long' })).toBe(
      dateFormat('pt-BR', { dateStyle: 'long' }),
    );
  });
});
