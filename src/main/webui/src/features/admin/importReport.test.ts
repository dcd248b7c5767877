import { describe, expect, it } from 'vitest';
import { generatedPasswordsCsv, importRows } from './importReport';
import { csvCell, toCsv } from '../../lib/csv';

const REPORT = {
  created: [
    { line: 4, username: 'carol', password: 'p,"q"' },
    { line: 2, username: 'alice', password: 'Xy7-generated' },
    { line: 3, username: 'bob', password: null },
  ],
  refused: [
    { line: 5, username: 'alice', reason: 'username already exists' },
    { line: 6, username: null, reason: 'username is required' },
  ],
};

describe('generatedPasswordsCsv', () => {
  it('lists only users with a generated password, in line order, escaped', () => {
    expect(generatedPasswordsCsv(REPORT)).toBe('line,username,password\r\n2,alice,Xy7-generated\r\n4,carol,"p,""q"""\r\n');
  });
  it('is null when no password was generated', () => {
    expect(generatedPasswordsCsv({ created: [{ line: 2, username: 'a', password: null }], refused: [] })).toBeNull();
    expect(generatedPasswordsCsv({ created: [], refused: [] })).toBeNull();
  });
});

describe('importRows', () => {
  it('merges created and refused lines in line order', () => {
    expect(importRows(REPORT).map((r) => [r.line, r.outcome, r.username])).toEqual([
      [2, 'created', 'alice'],
      [3, 'created', 'bob'],
      [4, 'created', 'carol'],
      [5, 'refused', 'alice'],
      [6, 'refused', null],
    ]);
    expect(importRows(REPORT)[3]?.detail).toBe('username already exists');
  });
});

describe('csv', () => {
  it('quotes only when needed', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(7)).toBe('7');
    expect(
      toCsv([
        ['a', 'b'],
        [1, null],
      ]),
    ).toBe('a,b\r\n1,\r\n');
  });
});
