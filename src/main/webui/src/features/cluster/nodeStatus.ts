import type { BadgeTone } from '../../components/common/StatusBadge';
import type { ClusterNode } from '../../api/types';

export type NodeStatus = 'Ready' | 'NotReady' | 'Cordoned';

/** A node that is not ready is NotReady whatever its schedulability; a ready but unschedulable node is Cordoned. */
export function nodeStatus(node: Pick<ClusterNode, 'ready' | 'schedulable'>): NodeStatus {
  if (!node.ready) return 'NotReady';
  if (!node.schedulable) return 'Cordoned';
  return 'Ready';
}

export function nodeStatusTone(status: NodeStatus): BadgeTone {
  switch (status) {
    case 'Ready':
      return 'success';
    case 'Cordoned':
      return 'warning';
    case 'NotReady':
      return 'danger';
  }
}
