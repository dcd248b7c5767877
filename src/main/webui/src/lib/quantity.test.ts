import { describe, expect, it } from 'vitest';
import { formatResourceMilli, parseQuantityMilli, resourceKind } from './units';

const GiB = 1024 ** 3;

describe('resourceKind', () => {
  it('knows cpu and memory; everything else is an accelerator model', () => {
    expect(resourceKind('cpu')).toBe('cpu');
    expect(resourceKind('memory')).toBe('memory');
    expect(resourceKind('nvidia-a100-80gb')).toBe('accelerator');
  });
});

describe('formatResourceMilli', () => {
  it('formats accelerators as counts', () => {
    expect(formatResourceMilli('nvidia-a100-80gb', 20_000)).toBe('20');
    expect(formatResourceMilli('ascend-910b', 0)).toBe('0');
    expect(formatResourceMilli('nvidia-a100-80gb', 500)).toBe('0.5');
  });
  it('formats cpu as cores', () => {
    expect(formatResourceMilli('cpu', 64_000)).toBe('64');
    expect(formatResourceMilli('cpu', 500)).toBe('0.5');
    expect(formatResourceMilli('cpu', 1250)).toBe('1.25');
  });
  it('formats memory as GiB', () => {
    expect(formatResourceMilli('memory', 64 * GiB * 1000)).toBe('64');
    expect(formatResourceMilli('memory', 1.5 * GiB * 1000)).toBe('1.5');
    expect(formatResourceMilli('memory', 0)).toBe('0');
  });
  it('shows a dash for non-numbers', () => {
    expect(formatResourceMilli('cpu', Number.NaN)).toBe('—');
  });
});

describe('parseQuantityMilli', () => {
  it('reads plain, milli, decimal and binary quantities', () => {
    expect(parseQuantityMilli('8')).toBe(8000);
    expect(parseQuantityMilli(' 16 ')).toBe(16_000);
    expect(parseQuantityMilli('500m')).toBe(500);
    expect(parseQuantityMilli('1.5')).toBe(1500);
    expect(parseQuantityMilli('64Gi')).toBe(64 * GiB * 1000);
    expect(parseQuantityMilli('2k')).toBe(2_000_000);
    expect(parseQuantityMilli('1e3')).toBe(1_000_000);
    expect(parseQuantityMilli('0')).toBe(0);
  });
  it('rejects malformed and negative quantities', () => {
    for (const bad of ['', '-1', 'abc', '8 Gi', '1.2.3', 'Gi', '5x']) expect(parseQuantityMilli(bad)).toBeNull();
  });
  it('leaves what a field means to the field parsers (parseResourceAmount, parseMemoryGiB, …)', () => {
    // A server quantity: a bare number is the base unit, here bytes; the console's GiB fields never send one.
    expect(parseQuantityMilli('64')).toBe(64_000);
  });
});
