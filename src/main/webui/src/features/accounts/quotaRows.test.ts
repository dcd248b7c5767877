import { describe, expect, it } from 'vitest';
import { validateQuotaRows } from './quotaRows';

describe('validateQuotaRows', () => {
  it('accepts good rows', () => {
    expect(
      validateQuotaRows([
        { resource: 'nvidia-a100-80gb', guaranteed: '8', max: '16' },
        { resource: 'cpu', guaranteed: '500m', max: '64' },
        { resource: 'memory', guaranteed: '64Gi', max: '256Gi' },
      ]),
    ).toEqual({});
  });
  it('flags max below guaranteed, bad quantities, fractional devices and duplicates', () => {
    expect(
      validateQuotaRows([
        { resource: 'nvidia-a100-80gb', guaranteed: '8', max: '4' },
        { resource: 'cpu', guaranteed: 'x', max: '-2' },
        { resource: 'ascend-910b', guaranteed: '0.5', max: '2' },
        { resource: 'cpu', guaranteed: '1', max: '2' },
      ]),
    ).toEqual({
      'items[0].max': 'quota.maxBelowGuaranteed',
      'items[1].guaranteed': 'quota.invalidQuantity',
      'items[1].max': 'quota.invalidQuantity',
      'items[2].guaranteed': 'quota.invalidQuantity',
      'items[3].resource': 'quota.duplicate',
    });
  });
});
