import { describe, expect, it } from 'vitest';
import { formToLimits, isEmptyLimits, limitsToForm } from './limitsForm';

describe('limits form', () => {
  it('turns limits into text fields, listing the given resources even when unset', () => {
    const form = limitsToForm(
      { resources: { 'nvidia-a100-80gb': '2', cpu: '16' }, maxRunningJobs: 3, maxInteractiveSessions: null },
      ['nvidia-a100-80gb', 'memory'],
    );
    expect(form).toEqual({
      resources: { 'nvidia-a100-80gb': '2', memory: '', cpu: '16' },
      maxRunningJobs: '3',
      maxInteractiveSessions: '',
    });
  });

  it('drops empty values and turns blank counts into null', () => {
    const { limits, errors } = formToLimits({
      resources: { 'nvidia-a100-80gb': ' 2 ', memory: '', cpu: '500m' },
      maxRunningJobs: '',
      maxInteractiveSessions: '1',
    });
    expect(errors).toEqual({});
    expect(limits).toEqual({
      resources: { 'nvidia-a100-80gb': '2', cpu: '500m' },
      maxRunningJobs: null,
      maxInteractiveSessions: 1,
    });
  });

  it('reports bad amounts and counts', () => {
    const { errors } = formToLimits({
      resources: { 'nvidia-a100-80gb': '1.5', memory: '64Gi', cpu: 'lots' },
      maxRunningJobs: '-1',
      maxInteractiveSessions: '2.5',
    });
    expect(errors).toEqual({
      'resource:nvidia-a100-80gb': 'limits.invalidAmount',
      'resource:cpu': 'limits.invalidAmount',
      maxRunningJobs: 'limits.invalidCount',
      maxInteractiveSessions: 'limits.invalidCount',
    });
  });

  it('knows an empty override', () => {
    expect(isEmptyLimits({ resources: {}, maxRunningJobs: null, maxInteractiveSessions: null })).toBe(true);
    expect(isEmptyLimits(undefined)).toBe(true);
    expect(isEmptyLimits({ resources: { cpu: '1' }, maxRunningJobs: null, maxInteractiveSessions: null })).toBe(false);
  });
});
