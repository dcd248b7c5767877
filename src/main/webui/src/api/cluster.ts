import { requestJson } from './client';
import type { AcceleratorSummary, ClusterNode, ItemList } from './types';

export function listNodes(signal?: AbortSignal): Promise<ItemList<ClusterNode>> {
  return requestJson<ItemList<ClusterNode>>('/cluster/nodes', { signal });
}

export function listAccelerators(signal?: AbortSignal): Promise<ItemList<AcceleratorSummary>> {
  return requestJson<ItemList<AcceleratorSummary>>('/cluster/accelerators', { signal });
}
