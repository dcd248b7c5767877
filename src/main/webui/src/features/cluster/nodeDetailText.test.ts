import { describe, expect, it } from 'vitest';
import { ageText, conditionTone, eventTone, labelLines, taintText } from './nodeDetailText';

const NOW = Date.parse('2026-12-02T10:00:00Z');

describe('node detail text', () => {
  it.each([
    ['2026-12-02T09:59:15Z', '45s'],
    ['2026-12-02T07:55:00Z', '2h 5m'],
    ['2026-11-28T06:00:00Z', '4d 4h'],
    ['2026-12-02T10:00:30Z', '0s'],
    ['not a time', '—'],
  ])('the age of %s is %s', (iso, text) => {
    expect(ageText(iso, NOW)).toBe(text);
  });

  it('has no age for an unknown instant', () => {
    expect(ageText(null, NOW)).toBe('—');
  });

  it.each([
    ['Ready', 'True', 'success'],
    ['Ready', 'False', 'danger'],
    ['Ready', 'Unknown', 'warning'],
    ['MemoryPressure', 'False', 'success'],
    ['MemoryPressure', 'True', 'warning'],
    ['DiskPressure', 'Unknown', 'warning'],
    ['NetworkUnavailable', 'False', 'success'],
  ] as const)('a %s condition that is %s is %s', (type, status, tone) => {
    expect(conditionTone({ type, status })).toBe(tone);
  });

  it('makes warnings stand out among the events', () => {
    expect(eventTone('Warning')).toBe('warning');
    expect(eventTone('Normal')).toBe('neutral');
    expect(eventTone(null)).toBe('neutral');
  });

  it('writes taints and labels as kubectl does, labels by key', () => {
    expect(taintText({ key: 'gpu', value: 'broken', effect: 'NoSchedule' })).toBe('gpu=broken:NoSchedule');
    expect(taintText({ key: 'maintenance', value: '', effect: 'NoExecute' })).toBe('maintenance:NoExecute');
    expect(labelLines({ zone: 'a', 'kubernetes.io/arch': 'amd64' })).toEqual(['kubernetes.io/arch=amd64', 'zone=a']);
  });
});
