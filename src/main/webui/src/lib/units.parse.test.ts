import { describe, expect, it } from 'vitest';
import { JOB_LIMITS, QUOTA_LIMITS } from './limits';
import {
  formatMoney,
  parseCount,
  parseCpu,
  parseDecimal,
  parseDuration,
  parseMemoryGiB,
  parseMoney,
  parseResourceAmount,
  quantityToField,
  type Parsed,
} from './units';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

const ok = (p: Parsed) => (p.ok ? { value: p.value, api: p.api, shown: p.shown } : p.problem);
const problem = (p: Parsed) => (p.ok ? `understood ${p.api}` : p.problem);

describe('parseDecimal: both decimal forms, refusing what is ambiguous', () => {
  it.each([
    ['1.5', 1.5],
    ['1,5', 1.5],
    ['１，５', 1.5],
    ['１２', 12],
    ['.5', 0.5],
    [' 64 ', 64],
    ['+3', 3],
    ['1,25', 1.25],
  ])('%s is %d', (text, value) => {
    const p = parseDecimal(text);
    expect(p.ok && p.value).toBe(value);
  });
  it.each([
    ['', 'units.required'],
    ['-1', 'units.negative'],
    ['1,500', 'units.ambiguousComma'],
    ['1,234.5', 'units.notANumber'],
    ['1.2.3', 'units.notANumber'],
    ['abc', 'units.notANumber'],
  ])('%s is refused: %s', (text, key) => {
    const p = parseDecimal(text);
    expect(p.ok ? 'ok' : p.problem.key).toBe(key);
  });
});

describe('parseMemoryGiB: a bare number in a GiB field is GiB', () => {
  const max = QUOTA_LIMITS.maxMemoryBytes;
  it.each([
    ['64', 64 * GiB, '64Gi', '64 GiB'],
    ['256', 256 * GiB, '256Gi', '256 GiB'],
    ['1.5', 1.5 * GiB, '1536Mi', '1.5 GiB'],
    ['1,5', 1.5 * GiB, '1536Mi', '1.5 GiB'],
    ['512Mi', 512 * MiB, '512Mi', '512 MiB'],
    ['512 MiB', 512 * MiB, '512Mi', '512 MiB'],
    ['64Gi', 64 * GiB, '64Gi', '64 GiB'],
    ['2Ti', 2 * 1024 * GiB, '2Ti', '2 TiB'],
    ['1G', 1e9, '1G', '953.7 MiB'],
    ['500M', 5e8, '500M', '476.8 MiB'],
    ['0', 0, '0', '0 B'],
    ['0.3', Math.ceil(0.3 * GiB), '314573Ki', '307.2 MiB'],
  ])('%s → %d bytes, sent as %s, shown as %s', (text, bytes, api, shown) => {
    expect(ok(parseMemoryGiB(text, max))).toEqual({ value: bytes, api, shown });
  });
  it.each([
    ['99999Ti', { key: 'units.tooLarge', values: { limit: '8192 TiB', unit: '' } }],
    ['9000000', { key: 'units.tooLarge', values: { limit: '8192 TiB', unit: '' } }],
    ['64 bytes', { key: 'units.memoryUnit', values: { unit: 'bytes' } }],
    ['64Kb', { key: 'units.memoryUnit', values: { unit: 'Kb' } }],
    ['-4', { key: 'units.negative' }],
    ['lots', { key: 'units.memoryUnit', values: { unit: 'lots' } }],
    ['', { key: 'units.required' }],
  ])('%s is refused', (text, expected) => {
    expect(problem(parseMemoryGiB(text, max))).toEqual(expected);
  });
  it('holds a job to its own bounds', () => {
    expect(problem(parseMemoryGiB('17Ti', JOB_LIMITS.maxMemoryBytes, JOB_LIMITS.minMemoryBytes))).toEqual({
      key: 'units.tooLarge',
      values: { limit: '16 TiB', unit: '' },
    });
    expect(problem(parseMemoryGiB('512Mi', JOB_LIMITS.maxMemoryBytes, JOB_LIMITS.minMemoryBytes))).toEqual({
      key: 'units.tooSmall',
      values: { limit: '1000 MiB' },
    });
  });
});

describe('parseCpu: cores or millicores', () => {
  it.each([
    ['8', 8000, '8', '8'],
    ['1.5', 1500, '1500m', '1.5'],
    ['1,5', 1500, '1500m', '1.5'],
    ['500m', 500, '500m', '0.5'],
    ['4 cores', 4000, '4', '4'],
  ])('%s → %d milli, sent as %s', (text, milli, api, shown) => {
    expect(ok(parseCpu(text, JOB_LIMITS.maxCpuMilli))).toEqual({ value: milli, api, shown });
  });
  it.each([
    ['1025', { key: 'units.tooLarge', values: { limit: '1024', unit: 'units.cpu' } }],
    ['1.5m', { key: 'units.wholeMillicores' }],
    ['-2', { key: 'units.negative' }],
    ['two', { key: 'units.notANumber' }],
  ])('%s is refused', (text, expected) => {
    expect(problem(parseCpu(text, JOB_LIMITS.maxCpuMilli))).toEqual(expected);
  });
  it('refuses zero where a job needs some cpu', () => {
    expect(problem(parseCpu('0', JOB_LIMITS.maxCpuMilli, 1))).toEqual({
      key: 'units.tooSmall',
      values: { limit: '0.001', unit: 'units.cpu' },
    });
  });
});

describe('parseCount: whole, non-negative, within the limit', () => {
  it.each([
    ['0', 0],
    ['8', 8],
    ['６４', 64],
  ])('%s → %d', (text, n) => {
    expect(ok(parseCount(text, JOB_LIMITS.maxAccelerators))).toEqual({ value: n, api: String(n), shown: String(n) });
  });
  it.each([
    ['-1', { key: 'units.negative' }],
    ['65', { key: 'units.tooLarge', values: { limit: '64', unit: 'units.accelerator' } }],
    ['1.5', { key: 'units.wholeNumber' }],
    ['1,5', { key: 'units.wholeNumber' }],
  ])('%s is refused', (text, expected) => {
    expect(problem(parseCount(text, JOB_LIMITS.maxAccelerators))).toEqual(expected);
  });
});

describe('parseDuration', () => {
  const week = 7 * 86_400;
  it.each([
    ['90m', 5400, '90m', '1h 30m'],
    ['12h', 43_200, '12h', '12h'],
    ['12', 43_200, '12h', '12h'],
    ['1,5h', 5400, '90m', '1h 30m'],
    ['1.5', 5400, '90m', '1h 30m'],
    ['3d', 259_200, '3d', '3d'],
    ['45s', 45, '45s', '45s'],
  ])('%s → %d s, sent as %s', (text, seconds, api, shown) => {
    expect(ok(parseDuration(text, week))).toEqual({ value: seconds, api, shown });
  });
  it.each([
    ['8d', { key: 'units.tooLarge', values: { limit: '7d', unit: '' } }],
    ['0', { key: 'units.tooSmall', values: { limit: '1s' } }],
    ['1.5s', { key: 'units.wholeSeconds' }],
    ['1 week', { key: 'units.notANumber' }],
  ])('%s is refused', (text, expected) => {
    expect(problem(parseDuration(text, week))).toEqual(expected);
  });
});

describe('parseMoney: micro-units, no floating point', () => {
  it.each([
    ['12.5', 12_500_000, '12.5'],
    ['12,5', 12_500_000, '12.5'],
    ['0.000001', 1, '0.000001'],
    ['100', 100_000_000, '100'],
  ])('%s → %d micro', (text, micro, api) => {
    expect(ok(parseMoney(text, 1e12))).toEqual({ value: micro, api, shown: api });
  });
  it.each([
    ['0.0000001', { key: 'units.tooManyDecimals', values: { digits: 6 } }],
    ['2000000', { key: 'units.tooLarge', values: { limit: '1000000', unit: '' } }],
    ['-3', { key: 'units.negative' }],
  ])('%s is refused', (text, expected) => {
    expect(problem(parseMoney(text, 1e12))).toEqual(expected);
  });
  it('formats micro-units exactly', () => {
    expect(formatMoney(1_000_001)).toBe('1.000001');
    expect(formatMoney(0)).toBe('0');
  });
});

describe('quota and limit amounts by resource', () => {
  it.each([
    ['memory', '64', '64Gi'],
    ['cpu', '128', '128'],
    ['nvidia-a100-80gb', '16', '16'],
  ])('%s %s is sent as %s', (resource, text, api) => {
    const p = parseResourceAmount(resource, text, QUOTA_LIMITS);
    expect(p.ok && p.api).toBe(api);
  });
  it('refuses fractional accelerators and huge amounts', () => {
    expect(problem(parseResourceAmount('nvidia-a100-80gb', '0.5', QUOTA_LIMITS))).toEqual({ key: 'units.wholeNumber' });
    expect(problem(parseResourceAmount('cpu', '2000000', QUOTA_LIMITS))).toEqual({
      key: 'units.tooLarge',
      values: { limit: '1000000', unit: 'units.cpu' },
    });
  });
  it.each([
    ['memory', '64Gi', '64'],
    ['memory', '1536Mi', '1.5'],
    ['memory', '100Mi', '100Mi'],
    ['memory', '64', '64'],
    ['cpu', '500m', '0.5'],
    ['nvidia-a100-80gb', '8', '8'],
  ])('%s %s is edited as %s', (resource, quantity, field) => {
    expect(quantityToField(resource, quantity)).toBe(field);
  });
});
