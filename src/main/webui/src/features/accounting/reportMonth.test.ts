import { describe, expect, it } from 'vitest';
import { monthLabel, monthSpan, recentMonths } from './reportMonth';

describe('report months', () => {
  it('lists the current month and the twelve before it, across a new year', () => {
    const months = recentMonths(new Date('2026-02-10T12:00:00Z'));
    expect(months).toHaveLength(13);
    expect(months.slice(0, 3)).toEqual(['2026-02', '2026-01', '2025-12']);
    expect(months[12]).toBe('2025-02');
  });

  it('spans a month from its first day to the next first day', () => {
    expect(monthSpan('2026-11')).toEqual({ from: '2026-11-01', to: '2026-12-01' });
    expect(monthSpan('2026-12')).toEqual({ from: '2026-12-01', to: '2027-01-01' });
    expect(monthSpan('2024-02')).toEqual({ from: '2024-02-01', to: '2024-03-01' });
  });

  it('names a month in the reader language', () => {
    expect(monthLabel('2026-11', 'en')).toBe('November 2026');
    expect(monthLabel('2026-11', 'zh-CN')).toBe('2026年11月');
  });
});
