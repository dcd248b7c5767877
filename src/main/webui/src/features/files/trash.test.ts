import { describe, expect, it } from 'vitest';
import { trashDays } from './trash';

const entry = (deletedAt: string, expiresAt: string) => ({ id: 1, path: '/x', type: 'file', bytes: 1, files: 1, deletedAt, expiresAt });

describe('the days the trash keeps an entry', () => {
  it('are read from an entry it holds', () => {
    expect(trashDays([entry('2026-12-01T10:00:00Z', '2026-12-08T10:00:00Z')])).toBe(7);
    expect(trashDays([entry('2026-12-01T10:00:00Z', '2026-12-31T10:00:00.5Z')])).toBe(30);
  });

  it('are unknown while the trash is empty or not loaded', () => {
    expect(trashDays([])).toBeNull();
    expect(trashDays(undefined)).toBeNull();
  });
});
