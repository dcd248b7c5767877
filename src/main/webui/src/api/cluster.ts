import { requestJson } from './client';
import type { AcceleratorSummary, ClusterNode, ItemList, ReadinessLast, ReadinessReport } from './types';

export function listNodes(signal?: AbortSignal): Promise<ItemList<ClusterNode>> {
  return requestJson<ItemList<ClusterNode>>('/cluster/nodes', { signal });
}

export function listAccelerators(signal?: AbortSignal): Promise<ItemList<AcceleratorSummary>> {
  return requestJson<ItemList<AcceleratorSummary>>('/cluster/accelerators', { signal });
}

export function getReadiness(signal?: AbortSignal): Promise<ReadinessLast> {
  return requestJson<ReadinessLast>('/cluster/readiness', { signal });
}

export function checkReadiness(): Promise<ReadinessReport> {
  return requestJson<ReadinessReport>('/cluster/readiness/check', { method: 'POST' });
}
