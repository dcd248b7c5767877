import { useQueryClient } from '@tanstack/react-query';
import type { ClusterNode, ItemList } from '../../api/types';
import { clusterKeys } from './queries';

/** Whether a node is cordoned: Crater's cordon record, or unschedulable while ready (cordoned outside Crater). */
export function isCordoned(node: ClusterNode): boolean {
  return node.cordon !== null || (node.ready && !node.schedulable);
}

/** Puts a node the server answered with into the cached node list, then refetches it. */
export function useNodeUpdate() {
  const client = useQueryClient();
  return (node: ClusterNode) => {
    client.setQueryData<ItemList<ClusterNode>>(clusterKeys.nodes(), (old) =>
      old ? { ...old, items: old.items.map((n) => (n.name === node.name ? node : n)) } : old,
    );
    void client.invalidateQueries({ queryKey: clusterKeys.nodes() });
  };
}
