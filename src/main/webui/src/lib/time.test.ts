import { describe, expect, it } from 'vitest';
import { daysFrom, formatDateTime, isPast, localInputToIso, toLocalInputValue } from './time';

describe('datetime-local values', () => {
  it('round-trips a local time', () => {
    const d = new Date(2025, 2, 4, 9, 5, 0);
    expect(toLocalInputValue(d)).toBe('2025-03-04T09:05');
    expect(localInputToIso('2025-03-04T09:05')).toBe(d.toISOString());
  });
  it('treats a bare date as the end of that day', () => {
    expect(localInputToIso('2025-03-04')).toBe(new Date(2025, 2, 4, 23, 59, 59).toISOString());
  });
  it('returns null for empty or invalid input', () => {
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('tomorrow')).toBeNull();
  });
  it('adds days', () => {
    expect(toLocalInputValue(daysFrom(new Date(2025, 0, 31, 10, 0), 1))).toBe('2025-02-01T10:00');
  });
});

describe('formatDateTime', () => {
  it('formats or shows a dash', () => {
    expect(formatDateTime(null, 'en')).toBe('—');
    expect(formatDateTime('nope', 'en')).toBe('—');
    expect(formatDateTime('2025-03-04T09:05:00Z', 'en')).toMatch(/2025/);
  });
  it('tells past instants', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(isPast('2024-12-31T00:00:00Z', now)).toBe(true);
    expect(isPast('2025-01-02T00:00:00Z', now)).toBe(false);
    expect(isPast(null, now)).toBe(false);
  });
});
