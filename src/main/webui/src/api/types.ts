/** Wire types of the Crater REST API (v1). */

export type Role = 'admin' | 'user';

export interface User {
  id: string;
  username: string;
  displayName: string;
  role: Role;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export interface SessionResponse {
  accessToken: string;
  /** Lifetime of the access token in seconds. */
  expiresIn: number;
  user: User;
}

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

export interface ItemList<T> {
  items: T[];
}

export interface NodeEvent {
  type: 'updated' | 'deleted';
  node: ClusterNode;
}

/** RFC 9457 problem details, as sent by the server. */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  reasons?: unknown[];
}
