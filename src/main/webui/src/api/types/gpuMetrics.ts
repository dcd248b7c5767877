/** Wire types of the Crater REST API (v1): a job's live GPU metrics stream (Server-Sent Events). */

/** One card of the job at one step; a reading the source lacks is null. */
export interface GpuCardPoint {
  /** Null for a point known only from utilisation history whose card has no live reading. */
  node: string | null;
  index: number | null;
  uuid: string | null;
  model: string | null;
  pod: string;
  /** Percent. */
  utilisation: number | null;
  memoryUsedMiB: number | null;
  memoryTotalMiB: number | null;
  powerWatts: number | null;
  temperatureC: number | null;
}

/** `sample` event: what the job's cards read at one step (its id is `at` in epoch milliseconds). */
export interface GpuMetricSample {
  at: string;
  cards: GpuCardPoint[];
}

/** `window` event, the first of every connection: the recent samples, oldest first. */
export interface GpuMetricWindow {
  job: string;
  stepSeconds: number;
  samples: GpuMetricSample[];
  /** Why the latest read failed; null when it did not. */
  unavailable: string | null;
}

/** `unavailable` event: a step whose read failed. */
export interface GpuMetricUnavailable {
  at: string;
  reason: string;
}

/** `end` event: the job is over (state null: deleted); the stream closes. */
export interface GpuMetricEnd {
  job: string;
  state: string | null;
}
