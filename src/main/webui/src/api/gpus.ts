import { requestJson, withQuery } from './client';
import type { FreeAccelerators } from './types';

/** Who holds a card: the job when the viewer may see it, else only that another account's job does. */
export interface GpuHolder {
  job?: string;
  jobName?: string;
  account?: string;
  owner?: string;
  namespace?: string;
  pod?: string;
  heldByOtherAccount: boolean;
}

/** One card with its live readings; a reading the exporter does not report is null. */
export interface GpuCard {
  index: number;
  uuid: string | null;
  modelName: string | null;
  utilisation: number | null;
  memoryUsedMiB: number | null;
  memoryTotalMiB: number | null;
  powerWatts: number | null;
  temperatureC: number | null;
  holder: GpuHolder | null;
}

export interface GpuNode {
  name: string;
  model: string;
  displayName: string;
  schedulable: boolean;
  free: number;
  cards: GpuCard[];
}

export interface GpuModelSummary {
  model: string;
  displayName: string;
  cards: number;
  allocated: number;
  free: number;
  meanUtilisation: number | null;
  nodes: { node: string; free: number }[];
}

/** GET /cluster/gpus: `unavailable` is the reason the cards could not be read (both lists are then empty). */
export interface GpuOverview {
  unavailable: string | null;
  models: GpuModelSummary[];
  nodes: GpuNode[];
}

export interface GpuFilter {
  minFree: number | null;
  model: string | null;
}

export function getGpus(filter: GpuFilter, signal?: AbortSignal): Promise<GpuOverview> {
  return requestJson<GpuOverview>(withQuery('/cluster/gpus', { minFree: filter.minFree, model: filter.model }), {
    signal,
  });
}

/**
 * One hour of a model over the whole cluster, in GPUs (mean devices over the hour): held (`allocated`), with
 * utilisation samples (`measured`) and busy (`used`); `efficiency` is used ÷ measured (null when nothing was
 * measured); the current hour is `partial` (its means are over its part so far).
 */
export interface GpuHistoryPoint {
  hour: string;
  allocated: number;
  measured: number;
  used: number;
  efficiency: number | null;
  partial: boolean;
}

/** A model's hours, oldest first, and its cards now. */
export interface GpuModelHistory {
  model: string;
  displayName: string;
  total: number;
  points: GpuHistoryPoint[];
}

/** GET /cluster/gpu-history: the span (`from` the first hour's start, `to` now) and one entry per model. */
export interface GpuHistory {
  hours: number;
  from: string;
  to: string;
  models: GpuModelHistory[];
}

export function getGpuHistory(hours: number, signal?: AbortSignal): Promise<GpuHistory> {
  return requestJson<GpuHistory>(withQuery('/cluster/gpu-history', { hours }), { signal });
}

/** Free cards per model and node, and what the caller's accounts may still use of each model. */
export function getFreeAccelerators(signal?: AbortSignal): Promise<FreeAccelerators> {
  return requestJson<FreeAccelerators>('/cluster/free-accelerators', { signal });
}
