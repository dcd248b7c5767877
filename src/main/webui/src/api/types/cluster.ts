/** Wire types of the Crater REST API (v1): the cluster's nodes and accelerators. */

import type { JobState, Reason } from './jobs';

export interface NodeAccelerator {
  model: string;
  displayName: string;
  vendor: string;
  resource: string;
  total: number;
  allocated: number;
}

export interface NodeCpu {
  totalMilli: number;
  allocatedMilli: number;
}

export interface NodeMemory {
  totalBytes: number;
  allocatedBytes: number;
}

export interface ClusterNode {
  name: string;
  ready: boolean;
  schedulable: boolean;
  accelerator: NodeAccelerator | null;
  cpu: NodeCpu;
  memory: NodeMemory;
  pods: number;
  labels: Record<string, string>;
  /** Extended resources the node publishes that no catalogue model covers: nothing can request them yet. */
  uncovered: UncoveredResource[];
  taints: NodeTaint[];
  /** Who cordoned the node, why and when; null when it is not cordoned. Empty strings when cordoned outside Crater. */
  cordon: NodeCordonView | null;
  /** The team account the node is exclusive to; null when every account may use it. */
  exclusive: NodeExclusiveView | null;
  /** Suspect or quarantined GPUs, why and since when; null when healthy. */
  health: NodeHealthView | null;
}

export interface NodeExclusiveView {
  accountId: number;
  /** The account's slug; empty when the taint was set outside Crater. */
  account: string;
}

export interface NodeHealthView {
  state: 'suspect' | 'quarantined';
  /** The first reason, e.g. "GPU 3 reported XID 79, which needs the card reset or replaced". */
  reason: string;
  /** RFC 3339 instant. */
  since: string;
}

/** GPU health of a node as `GET /admin/nodes/{name}/health` answers it (platform admins; docs/nodes.md, quarantine). */
export interface GpuHealth {
  node: string;
  state: 'HEALTHY' | 'SUSPECT' | 'QUARANTINED';
  /** RFC 3339 instant the state began; null when healthy. */
  since: string | null;
  /** Why, with the numbers (card, XID code, counts, thresholds). */
  reasons: Reason[];
  /** When and by whom a platform admin last cleared it; null when never. */
  clearedAt: string | null;
  clearedBy: string | null;
  /** The newest evidence (at most 50), newest first. */
  evidence: GpuHealthEvidence[];
}

/**
 * One piece of evidence: an XID a card reported (`value` is its code), a rise of a card's uncorrectable ECC count
 * (`value` new errors) or a Crater job that failed with a pod on the node (`gpu` null, `value` 0).
 */
export interface GpuHealthEvidence {
  kind: 'XID' | 'ECC_DBE' | 'JOB_FAILED';
  /** RFC 3339 instant. */
  at: string;
  gpu: number | null;
  value: number;
  /** The public id of the job involved; null when none is known. */
  job: string | null;
}

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface NodeTaint {
  key: string;
  /** Empty when the taint has no value. */
  value: string;
  effect: TaintEffect;
}

export interface NodeCordonView {
  reason: string;
  by: string;
  /** RFC 3339 instant. */
  at: string;
}

export interface NodeDrainBlocked {
  namespace: string;
  pod: string;
  message: string;
}

export interface NodeDrainKept {
  namespace: string;
  name: string;
  why: 'Finished' | 'StaticPod' | 'DaemonSet';
}

/** What a drain did: the node after it, pods evicted ("namespace/name"), refused by a budget, kept, jobs stopped. */
export interface NodeDrainResult {
  node: ClusterNode;
  evicted: string[];
  blocked: NodeDrainBlocked[];
  kept: NodeDrainKept[];
  stoppedJobs: string[];
  /** With `requeue`: each stopped job's copy, waiting again in its place in line, by the stopped job's id. */
  requeued: Record<string, string>;
}

export interface NodeLabelEdit {
  set?: Record<string, string>;
  remove?: string[];
}

export interface NodeTaintEdit {
  add?: NodeTaint[];
  remove?: { key: string; effect: TaintEffect }[];
}

export interface UncoveredResource {
  resource: string;
  count: number;
}

export interface AcceleratorSummary {
  model: string;
  displayName: string;
  vendor: string;
  resource: string;
  nodes: number;
  total: number;
  allocated: number;
  free: number;
}

export interface NodeEvent {
  type: 'updated' | 'deleted';
  node: ClusterNode;
}

/** A shortfall of the cluster for Crater: a stable code and the facts behind it (docs/readiness.md). */
export interface ReadinessReason {
  code: string;
  args: Record<string, string>;
}

export interface ReadinessCheck {
  name: 'volcano-crds' | 'volcano-scheduler' | 'permissions' | 'job-namespace' | 'storage' | 'prometheus';
  state: 'ok' | 'degraded' | 'unknown';
  reasons: ReadinessReason[];
}

/** Whether the cluster has what Crater needs: `degraded` when a check is. */
export interface ReadinessReport {
  state: 'ok' | 'degraded';
  checkedAt: string;
  checks: ReadinessCheck[];
}

/** The last report; null before the first (taken at start on a real cluster, or when an admin asks). */
export interface ReadinessLast {
  report: ReadinessReport | null;
}

/**
 * GET /admin/nodes/{name}: the node as the list shows it, its conditions, the pods bound to it (every namespace),
 * the Crater jobs of those pods, and the cluster's events about the node, newest first.
 */
export interface NodeDetail {
  node: ClusterNode;
  conditions: NodeCondition[];
  pods: NodePod[];
  jobs: NodeJob[];
  events: NodeKubeEvent[];
  /** Why the events could not be read (the rest is answered); null when they were. */
  eventsUnavailable: string | null;
}

/** A condition of the node's status (`Ready`, `MemoryPressure`, ...); `status` is "True", "False" or "Unknown". */
export interface NodeCondition {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  /** RFC 3339 instant. */
  lastTransitionTime: string | null;
}

/** A pod bound to the node and its requests: CPU in milli-cores, memory in bytes, accelerators in devices. */
export interface NodePod {
  namespace: string;
  name: string;
  phase: string | null;
  /** The public id of its Crater job; null for a pod that is no Crater job. */
  job: string | null;
  cpuMilli: number;
  memoryBytes: number;
  accelerators: number;
  /** RFC 3339 instant. */
  createdAt: string | null;
}

/** A Crater job with pods on the node, and how many of its pods are there. */
export interface NodeJob {
  id: string;
  name: string;
  state: JobState;
  owner: string;
  account: string;
  pods: number;
}

/** An event of the cluster about the node: `type` Normal or Warning, how often and when last (RFC 3339). */
export interface NodeKubeEvent {
  type: string | null;
  reason: string | null;
  message: string | null;
  count: number;
  lastSeen: string | null;
  source: string | null;
}
