import type { GpuUtilisation, IdleDecision } from '../api/types';

export function makeDecision(kind: IdleDecision['kind'], overrides: Partial<IdleDecision> = {}): IdleDecision {
  return {
    kind,
    why: null,
    message: 'idle: at most 1.5 % (mean 0.4 %) over the last 2 h, below the 5.0 % threshold',
    peakPercent: 1.5,
    meanPercent: 0.4,
    thresholdPercent: 5,
    windowSeconds: 7200,
    stopAt: null,
    idleSince: null,
    lockUntil: null,
    numbers: null,
    ...overrides,
  };
}

export function makeUtilisation(overrides: Partial<GpuUtilisation> = {}): GpuUtilisation {
  return {
    job: 'j1',
    model: 'nvidia-a100-80gb',
    accelerators: 2,
    metric: 'DCGM_FI_DEV_GPU_UTIL',
    thresholdPercent: 5,
    windowSeconds: 7200,
    graceSeconds: 1800,
    from: '2026-11-30T10:00:00Z',
    to: '2026-11-30T12:00:00Z',
    series: [
      {
        pod: 'c-j1-main-0',
        accelerator: '1',
        samples: [
          { at: '2026-11-30T10:00:00Z', percent: 0 },
          { at: '2026-11-30T11:00:00Z', percent: 2 },
        ],
      },
      {
        pod: 'c-j1-main-0',
        accelerator: '0',
        samples: [
          { at: '2026-11-30T10:00:00Z', percent: 80 },
          { at: '2026-11-30T11:00:00Z', percent: 40 },
          { at: '2026-11-30T12:00:00Z', percent: 60 },
        ],
      },
    ],
    unavailable: null,
    decision: null,
    ...overrides,
  };
}
