import { requestJson, withQuery } from './client';

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
