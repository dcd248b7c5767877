/** Wire types of the Crater REST API (v1): Accelerator utilisation and idle reclamation. */

export interface UtilisationSample {
  at: string;
  percent: number;
}

/** The samples of one accelerator of one pod. */
export interface UtilisationSeries {
  pod: string;
  accelerator: string;
  samples: UtilisationSample[];
}

export type IdleDecisionKind = 'Busy' | 'Unknown' | 'Exempt' | 'Warn' | 'Waiting' | 'Stop';

/** What the idle check would decide now, with its numbers (the fields of other kinds are null). */
export interface IdleDecision {
  kind: IdleDecisionKind;
  /** Why it is Unknown (YoungerThanWindow, NoSamples, SampleGap, ...). */
  why: string | null;
  message: string;
  peakPercent: number | null;
  meanPercent: number | null;
  thresholdPercent: number | null;
  windowSeconds: number | null;
  /** Warn/Waiting: when it is stopped if it stays idle. */
  stopAt: string | null;
  idleSince: string | null;
  /** Exempt: until when its job lock holds. */
  lockUntil: string | null;
  numbers: Record<string, number> | null;
}

/** GET /jobs/{id}/gpu-utilisation. */
export interface GpuUtilisation {
  job: string;
  /** The accelerator model; null when the job holds none. */
  model: string | null;
  accelerators: number;
  metric: string;
  thresholdPercent: number;
  windowSeconds: number;
  graceSeconds: number;
  from: string;
  to: string;
  series: UtilisationSeries[];
  /** Why there are no samples when the metrics source could not be read. */
  unavailable: string | null;
  /** Null unless the job is a running interactive job holding accelerators. */
  decision: IdleDecision | null;
}
