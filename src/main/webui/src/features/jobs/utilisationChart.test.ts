import { describe, expect, it } from 'vitest';
import { chartPoints, chartStart, holdsAccelerators, percentText, percentY, seriesStats, sortSeries } from './utilisationChart';

const box = { width: 200, height: 50 };
const from = '2026-11-30T10:00:00Z';
const to = '2026-11-30T12:00:00Z';

describe('percentText', () => {
  it.each<[number | null, string]>([
    [0, '0 %'],
    [12.34, '12.3 %'],
    [99.96, '100 %'],
    [5, '5 %'],
    [null, '—'],
    [Number.NaN, '—'],
  ])('%s → %s', (value, text) => {
    expect(percentText(value)).toBe(text);
  });
});

describe('chartPoints', () => {
  it('places samples by time and utilisation', () => {
    const points = chartPoints(
      [
        { at: '2026-11-30T10:00:00Z', percent: 0 },
        { at: '2026-11-30T11:00:00Z', percent: 50 },
        { at: '2026-11-30T12:00:00Z', percent: 100 },
      ],
      from,
      to,
      box,
    );
    expect(points).toBe('0,50 100,25 200,0');
  });

  it('clamps utilisation to 0–100 % and leaves out samples outside the range or unreadable', () => {
    const points = chartPoints(
      [
        { at: '2026-11-30T09:59:00Z', percent: 30 },
        { at: '2026-11-30T10:30:00Z', percent: 140 },
        { at: 'not a time', percent: 30 },
        { at: '2026-11-30T11:30:00Z', percent: -3 },
        { at: '2026-11-30T12:00:01Z', percent: 30 },
      ],
      from,
      to,
      box,
    );
    expect(points).toBe('50,0 150,50');
  });

  it('draws nothing without samples or with an empty range', () => {
    expect(chartPoints([], from, to, box)).toBe('');
    expect(chartPoints([{ at: from, percent: 1 }], to, from, box)).toBe('');
  });

  it('puts the threshold line at its height', () => {
    expect(percentY(5, box)).toBe(47.5);
    expect(percentY(0, box)).toBe(50);
    expect(percentY(250, box)).toBe(0);
  });
});

describe('chartStart', () => {
  it.each<[string, string | null, string]>([
    ['a job older than the range starts at the range', '2026-11-30T08:00:00Z', from],
    ['a younger job starts at its start', '2026-11-30T11:50:00Z', '2026-11-30T11:50:00Z'],
    ['a job without a start time starts at the range', null, from],
    ['an unreadable start time is ignored', 'soon', from],
  ])('%s', (_name, startedAt, expected) => {
    expect(chartStart(from, startedAt)).toBe(expected);
  });
});

describe('seriesStats', () => {
  it('gives the latest, highest and mean values', () => {
    expect(
      seriesStats([
        { at: '2026-11-30T10:00:00Z', percent: 10 },
        { at: '2026-11-30T10:01:00Z', percent: 70 },
        { at: '2026-11-30T10:02:00Z', percent: 40 },
      ]),
    ).toEqual({ latest: 40, peak: 70, mean: 40 });
  });

  it('has nothing to say without samples', () => {
    expect(seriesStats([])).toEqual({ latest: null, peak: null, mean: null });
  });
});

describe('sortSeries', () => {
  it('orders by pod, then by accelerator number', () => {
    const s = (pod: string, accelerator: string) => ({ pod, accelerator, samples: [] });
    expect(sortSeries([s('w-1', '0'), s('m-0', '10'), s('m-0', '2')]).map((x) => `${x.pod}/${x.accelerator}`)).toEqual([
      'm-0/2',
      'm-0/10',
      'w-1/0',
    ]);
  });
});

describe('holdsAccelerators', () => {
  it.each<[Record<string, string>, boolean]>([
    [{ cpu: '4', memory: '16Gi' }, false],
    [{ cpu: '4', memory: '16Gi', 'nvidia-a100-80gb': '2' }, true],
    [{ 'ascend-910b': '1' }, true],
    [{ cpu: '1', 'nvidia-rtx-4090': '0' }, false],
    [{}, false],
  ])('%j → %s', (requests, holds) => {
    expect(holdsAccelerators(requests)).toBe(holds);
  });
});
