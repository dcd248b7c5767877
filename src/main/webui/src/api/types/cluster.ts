/** Wire types of the Crater REST API (v1): the cluster's nodes and accelerators. */

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
