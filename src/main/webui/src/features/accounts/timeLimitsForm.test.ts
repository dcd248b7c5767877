import { describe, expect, it } from 'vitest';
import type { TimeLimitsForm } from './timeLimitsForm';
import { durationSeconds, formToTimeLimits, timeLimitsToForm } from './timeLimitsForm';

const EMPTY: TimeLimitsForm = { interactiveDefault: '', interactiveMax: '', batchDefault: '', batchMax: '' };

describe('durationSeconds', () => {
  it.each([
    ['45s', 45],
    ['90m', 5_400],
    ['12h', 43_200],
    ['3d', 259_200],
    [' 24h ', 86_400],
    ['999999d', 999_999 * 86_400],
    ['12', 43_200],
    ['1.5h', 5_400],
    ['1,5h', 5_400],
    ['12 h', 43_200],
  ])('reads %j as %i seconds', (text, seconds) => {
    expect(durationSeconds(text)).toBe(seconds);
  });

  it.each(['', '0s', 'h', '-1h', '12H', '1h30m', '1000000d', '3w', 'abc', '1.5s'])('rejects %j', (text) => {
    expect(durationSeconds(text)).toBeNull();
  });
});

describe('time limits form', () => {
  it('shows own values and leaves the platform ones empty', () => {
    expect(
      timeLimitsToForm({
        interactiveDefault: null,
        interactiveMax: '12h',
        batchDefault: '1d',
        batchMax: null,
        effective: { interactiveDefault: '4h', interactiveMax: '12h', batchDefault: '1d', batchMax: '7d' },
      }),
    ).toEqual({ interactiveDefault: '', interactiveMax: '12h', batchDefault: '1d', batchMax: '' });
  });

  it.each<[string, Partial<TimeLimitsForm>, Record<string, string>, Record<string, string>]>([
    ['an empty form', {}, {}, {}],
    [
      'every field set',
      { interactiveDefault: '4h', interactiveMax: '12h', batchDefault: '1d', batchMax: '7d' },
      { interactiveDefault: '4h', interactiveMax: '12h', batchDefault: '1d', batchMax: '7d' },
      {},
    ],
    ['trimmed values', { interactiveMax: ' 90m ', batchDefault: '  ' }, { interactiveMax: '90m' }, {}],
    ['a default equal to the max', { batchDefault: '24h', batchMax: '1d' }, { batchDefault: '24h', batchMax: '1d' }, {}],
    [
      'a default shorter than the max in other units',
      { interactiveDefault: '90m', interactiveMax: '2h' },
      { interactiveDefault: '90m', interactiveMax: '2h' },
      {},
    ],
    ['a default with no max set', { interactiveDefault: '30d' }, { interactiveDefault: '30d' }, {}],
    [
      'a default longer than the max',
      { interactiveDefault: '2d', interactiveMax: '36h' },
      { interactiveDefault: '2d', interactiveMax: '36h' },
      { interactiveDefault: 'accounts.timeLimits.defaultOverMax' },
    ],
    [
      'a batch default longer than the max',
      { batchDefault: '3601s', batchMax: '60m' },
      { batchDefault: '3601s', batchMax: '60m' },
      { batchDefault: 'accounts.timeLimits.defaultOverMax' },
    ],
    [
      'bad durations',
      { interactiveDefault: '1.5x', interactiveMax: '-12', batchDefault: '2w', batchMax: '7d' },
      { batchMax: '7d' },
      {
        interactiveDefault: 'accounts.timeLimits.invalidDuration',
        interactiveMax: 'accounts.timeLimits.invalidDuration',
        batchDefault: 'accounts.timeLimits.invalidDuration',
      },
    ],
    [
      'bare hours and decimals, sent in the server form',
      { interactiveDefault: '1,5', interactiveMax: '12' },
      { interactiveDefault: '90m', interactiveMax: '12h' },
      {},
    ],
    [
      'a bad max (the default is not compared with it)',
      { batchDefault: '9d', batchMax: 'forever' },
      { batchDefault: '9d' },
      { batchMax: 'accounts.timeLimits.invalidDuration' },
    ],
  ])('handles %s', (_, values, body, errors) => {
    const result = formToTimeLimits({ ...EMPTY, ...values });
    expect(result.body).toEqual(body);
    expect(result.errors).toEqual(errors);
  });
});
