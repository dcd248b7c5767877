import { describe, expect, it } from 'vitest';
import { filterFromSearch, memoryText, percentWidth } from './gpuText';

describe('memoryText', () => {
  it.each([
    [1024, 81920, '1 / 80 GiB'],
    [40960, 81920, '40 / 80 GiB'],
    [12800, 24564, '12.5 / 24 GiB'],
    [0, 81920, '0 / 80 GiB'],
    [300, 512, '300 / 512 MiB'],
    [2048, null, '2 GiB'],
    [700, null, '700 MiB'],
  ] as const)('%s of %s MiB → %s', (used, total, text) => {
    expect(memoryText(used, total)).toBe(text);
  });

  it('has no text without a reading', () => {
    expect(memoryText(null, 81920)).toBeNull();
  });
});

describe('percentWidth', () => {
  it.each([
    [null, 0],
    [Number.NaN, 0],
    [-3, 0],
    [42.5, 42.5],
    [130, 100],
  ] as const)('%s → %s', (value, width) => {
    expect(percentWidth(value)).toBe(width);
  });
});

describe('filterFromSearch', () => {
  it.each([
    ['', { minFree: null, model: null }],
    ['minFree=4&model=nvidia-a100-80gb', { minFree: 4, model: 'nvidia-a100-80gb' }],
    ['minFree=-1', { minFree: null, model: null }],
    ['minFree=two&model=', { minFree: null, model: null }],
  ] as const)('%s', (query, filter) => {
    expect(filterFromSearch(new URLSearchParams(query))).toEqual(filter);
  });
});
