import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCores,
  formatCoresPair,
  formatDuration,
  formatGiB,
  formatGiBPair,
  formatMiB,
  formatGpuCount,
  formatGpuPair,
  formatPercent,
  ratio,
  trimNumber,
} from './units';

const GiB = 1024 ** 3;

describe('trimNumber', () => {
  it('drops trailing zeros', () => {
    expect(trimNumber(1.5, 2)).toBe('1.5');
    expect(trimNumber(2, 2)).toBe('2');
    expect(trimNumber(100, 1)).toBe('100');
    expect(trimNumber(1.256, 2)).toBe('1.26');
    expect(trimNumber(-0.0001, 1)).toBe('0');
  });
});

describe('CPU', () => {
  it('formats milli-cores as cores', () => {
    expect(formatCores(64000)).toBe('64');
    expect(formatCores(4000)).toBe('4');
    expect(formatCores(500)).toBe('0.5');
    expect(formatCores(1250)).toBe('1.25');
    expect(formatCores(0)).toBe('0');
    expect(formatCores(1)).toBe('0');
    expect(formatCores(7)).toBe('0.01');
  });
  it('formats allocated / total', () => {
    expect(formatCoresPair(4000, 64000)).toBe('4 / 64');
    expect(formatCoresPair(250, 96000)).toBe('0.25 / 96');
  });
});

describe('memory', () => {
  it('formats bytes as GiB', () => {
    expect(formatGiB(549755813888)).toBe('512');
    expect(formatGiB(17179869184)).toBe('16');
    expect(formatGiB(1.5 * GiB)).toBe('1.5');
    expect(formatGiB(0)).toBe('0');
    expect(formatGiBPair(17179869184, 549755813888)).toBe('16 / 512');
  });
  it('formats bytes as MiB', () => {
    expect(formatMiB(3202349)).toBe('3.1');
    expect(formatMiB(64 * 1024 * 1024)).toBe('64');
    expect(formatMiB(1.25 * 1024 * 1024)).toBe('1.3');
    expect(formatMiB(0)).toBe('0');
  });
  it('picks a binary unit by size', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(256 * 1024 * 1024)).toBe('256 MiB');
    expect(formatBytes(16 * GiB)).toBe('16 GiB');
    expect(formatBytes(2 * 1024 * GiB)).toBe('2 TiB');
  });
});

describe('accelerators', () => {
  it('formats device counts', () => {
    expect(formatGpuCount(8)).toBe('8');
    expect(formatGpuCount(-1)).toBe('0');
    expect(formatGpuCount(Number.NaN)).toBe('0');
    expect(formatGpuPair(2, 8)).toBe('2 / 8');
  });
  it('computes ratios safely', () => {
    expect(ratio(8, 32)).toBe(0.25);
    expect(ratio(1, 0)).toBe(0);
    expect(ratio(10, 8)).toBe(1);
    expect(formatPercent(8, 32)).toBe('25%');
    expect(formatPercent(0, 0)).toBe('0%');
  });
});

describe('formatDuration', () => {
  it('uses the two largest units', () => {
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(60)).toBe('1m');
    expect(formatDuration(303)).toBe('5m 3s');
    expect(formatDuration(7500)).toBe('2h 5m');
    expect(formatDuration(3600)).toBe('1h');
    expect(formatDuration(273600)).toBe('3d 4h');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(-5)).toBe('0s');
  });
});
