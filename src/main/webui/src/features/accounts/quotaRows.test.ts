import { describe, expect, it } from 'vitest';
import type { QuotaLine } from '../../api/types';
import { quotaItems, quotaRowsFrom, validateQuotaRows } from './quotaRows';

describe('validateQuotaRows', () => {
  it('accepts good rows', () => {
    expect(
      validateQuotaRows([
        { resource: 'nvidia-a100-80gb', guaranteed: '8', max: '16' },
        { resource: 'cpu', guaranteed: '500m', max: '64' },
        { resource: 'memory', guaranteed: '64Gi', max: '256' },
      ]),
    ).toEqual({});
  });
  it('flags max below guaranteed, bad and huge amounts, fractional devices and duplicates', () => {
    expect(
      validateQuotaRows([
        { resource: 'nvidia-a100-80gb', guaranteed: '8', max: '4' },
        { resource: 'cpu', guaranteed: 'x', max: '-2' },
        { resource: 'ascend-910b', guaranteed: '0.5', max: '2' },
        { resource: 'cpu', guaranteed: '1', max: '2' },
        { resource: 'memory', guaranteed: '1', max: '99999Ti' },
      ]),
    ).toEqual({
      'items[0].max': { key: 'quota.maxBelowGuaranteed' },
      'items[1].guaranteed': { key: 'units.notANumber' },
      'items[1].max': { key: 'units.negative' },
      'items[2].guaranteed': { key: 'units.wholeNumber' },
      'items[3].resource': { key: 'quota.duplicate' },
      'items[4].max': { key: 'units.tooLarge', values: { limit: '8192 TiB', unit: '' } },
    });
  });
  it('compares max and guaranteed in one unit: 512 GiB is above 1Ti? no', () => {
    expect(validateQuotaRows([{ resource: 'memory', guaranteed: '1Ti', max: '512' }])).toEqual({
      'items[0].max': { key: 'quota.maxBelowGuaranteed' },
    });
  });
});

describe('quota rows to and from the server', () => {
  const line = (resource: string, guaranteed: string, max: string) => ({ resource, guaranteed, max }) as QuotaLine;
  it('edits memory in GiB and sends it with its unit', () => {
    const rows = quotaRowsFrom([line('memory', '256Gi', '512Gi'), line('cpu', '500m', '64')]);
    expect(rows).toEqual([
      { resource: 'memory', guaranteed: '256', max: '512' },
      { resource: 'cpu', guaranteed: '0.5', max: '64' },
    ]);
    expect(quotaItems(rows)).toEqual([
      { resource: 'memory', guaranteed: '256Gi', max: '512Gi' },
      { resource: 'cpu', guaranteed: '500m', max: '64' },
    ]);
  });
});
