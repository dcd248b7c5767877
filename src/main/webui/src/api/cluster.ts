import { requestJson } from './client';
import type {
  AcceleratorSummary,
  ClusterNode,
  ItemList,
  NodeDetail,
  NodeDrainResult,
  GpuHealth,
  NodeLabelEdit,
  NodeTaintEdit,
  ReadinessLast,
  ReadinessReport,
} from './types';

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

const admin = (name: string, action: string) => `/admin/nodes/${encodeURIComponent(name)}/${action}`;

/** A node with its conditions, pods, Crater jobs and events (platform admins). */
export function getNodeDetail(name: string, signal?: AbortSignal): Promise<NodeDetail> {
  return requestJson<NodeDetail>(`/admin/nodes/${encodeURIComponent(name)}`, { signal });
}

export function cordonNode(name: string, reason: string): Promise<ClusterNode> {
  return requestJson<ClusterNode>(admin(name, 'cordon'), { method: 'POST', body: { reason } });
}

export function uncordonNode(name: string): Promise<ClusterNode> {
  return requestJson<ClusterNode>(admin(name, 'uncordon'), { method: 'POST' });
}

export function drainNode(name: string, reason: string, requeue = false): Promise<NodeDrainResult> {
  return requestJson<NodeDrainResult>(admin(name, 'drain'), { method: 'POST', body: { reason, requeue } });
}

export function editNodeLabels(name: string, edit: NodeLabelEdit): Promise<ClusterNode> {
  return requestJson<ClusterNode>(admin(name, 'labels'), { method: 'PATCH', body: edit });
}

export function editNodeTaints(name: string, edit: NodeTaintEdit): Promise<ClusterNode> {
  return requestJson<ClusterNode>(admin(name, 'taints'), { method: 'PATCH', body: edit });
}

/** Makes the node exclusive to a team account (its slug): only that account's jobs are placed there. */
export function makeNodeExclusive(name: string, account: string): Promise<ClusterNode> {
  return requestJson<ClusterNode>(admin(name, 'exclusive'), { method: 'PUT', body: { account } });
}

/** Shares an exclusive node with every account again. */
export function shareNode(name: string): Promise<ClusterNode> {
  return requestJson<ClusterNode>(admin(name, 'exclusive'), { method: 'DELETE' });
}

/** The node's GPU health: state, since, reasons, last clear and evidence (platform admins). */
export function getNodeHealth(name: string, signal?: AbortSignal): Promise<GpuHealth> {
  return requestJson<GpuHealth>(admin(name, 'health'), { signal });
}

/** Clears the node's GPU health with a reason: healthy again, the quarantine's cordon lifted. */
export function clearNodeHealth(name: string, reason: string): Promise<GpuHealth> {
  return requestJson<GpuHealth>(admin(name, 'health/clear'), { method: 'POST', body: { reason } });
}
