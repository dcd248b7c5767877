import { describe, expect, it } from 'vitest';
import { normaliseUserCode } from './userCode';

describe('normaliseUserCode', () => {
  it.each([
    ['BCDF-GHJK', 'BCDF-GHJK'],
    ['bcdfghjk', 'BCDF-GHJK'],
    [' bcdf ghjk ', 'BCDF-GHJK'],
    ['BCDF\u2013GHJK', 'BCDF-GHJK'],
  ])('reads %j as %s', (typed, want) => {
    expect(normaliseUserCode(typed)).toBe(want);
  });

  it.each(['', 'BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', 'BCDF_GHJK'])('refuses %j', (typed) => {
    expect(normaliseUserCode(typed)).toBeNull();
  });
});
