import { describe, expect, it } from 'vitest';
import { formToLimits, isEmptyLimits, isLimitsField, limitsToForm } from './limitsForm';

describe('limits form', () => {
  it('turns limits into text fields in their units, listing the given resources even when unset', () => {
    const form = limitsToForm(
      { resources: { 'nvidia-a100-80gb': '2', cpu: '16', memory: '64Gi' }, maxRunningJobs: 3, maxInteractiveSessions: null },
      ['nvidia-a100-80gb', 'memory'],
    );
    expect(form).toEqual({
      resources: { 'nvidia-a100-80gb': '2', memory: '64', cpu: '16' },
      maxRunningJobs: '3',
      maxInteractiveSessions: '',
    });
  });

  it('drops empty values, turns blank counts into null and sends memory with its unit', () => {
    const { limits, errors } = formToLimits({
      resources: { 'nvidia-a100-80gb': ' 2 ', memory: '64', cpu: '500m' },
      maxRunningJobs: '',
      maxInteractiveSessions: '1',
    });
    expect(errors).toEqual({});
    expect(limits).toEqual({
      resources: { 'nvidia-a100-80gb': '2', memory: '64Gi', cpu: '500m' },
      maxRunningJobs: null,
      maxInteractiveSessions: 1,
    });
  });

  it('reports bad amounts and counts under their server field paths', () => {
    const { errors } = formToLimits({
      resources: { 'nvidia-a100-80gb': '1.5', memory: '99999Ti', cpu: 'lots' },
      maxRunningJobs: '-1',
      maxInteractiveSessions: '2.5',
    });
    expect(errors).toEqual({
      'resources.nvidia-a100-80gb': { key: 'units.wholeNumber' },
      'resources.memory': { key: 'units.tooLarge', values: { limit: '8192 TiB', unit: '' } },
      'resources.cpu': { key: 'units.notANumber' },
      maxRunningJobs: { key: 'units.negative' },
      maxInteractiveSessions: { key: 'units.wholeNumber' },
    });
  });

  it('knows its own field paths', () => {
    expect(['resources.memory', 'maxRunningJobs', 'maxInteractiveSessions', 'body'].map(isLimitsField)).toEqual([true, true, true, false]);
  });

  it('knows an empty override', () => {
    expect(isEmptyLimits({ resources: {}, maxRunningJobs: null, maxInteractiveSessions: null })).toBe(true);
    expect(isEmptyLimits(undefined)).toBe(true);
    expect(isEmptyLimits({ resources: { cpu: '1' }, maxRunningJobs: null, maxInteractiveSessions: null })).toBe(false);
  });
});
