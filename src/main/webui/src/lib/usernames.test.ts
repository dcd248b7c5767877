import { describe, expect, it } from 'vitest';
import { normalizeUsername, usernameProblem } from './usernames';

describe('usernameProblem', () => {
  // The same cases the server refuses in GovernanceTest, and the ones it takes.
  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['a', 'length'],
    ['x'.repeat(65), 'length'],
    ['has space', 'characters'],
    ['ü-ser', 'characters'],
    ['a/b', 'characters'],
    ['...', 'noLetterOrDigit'],
    ['-_', 'noLetterOrDigit'],
    ['ab', null],
    ['x'.repeat(64), null],
    ['First.Last', null],
    [' u2024001 ', null],
    ['lab_user-1', null],
  ])('%j → %s', (raw, want) => {
    expect(usernameProblem(raw)).toBe(want);
  });
});

describe('normalizeUsername', () => {
  it('trims and lower-cases, as the server stores it', () => {
    expect(normalizeUsername(' First.Last ')).toBe('first.last');
  });
});
