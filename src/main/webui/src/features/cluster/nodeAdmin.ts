import { useQueryClient } from '@tanstack/react-query';
import type { ClusterNode, ItemList, NodeDetail } from '../../api/types';
import { clusterKeys } from './queries';

/** Whether a node is cordoned: Crater's cordon record, or unschedulable while ready (cordoned outside Crater). */
export function isCordoned(node: ClusterNode): boolean {
  return node.cordon !== null || (node.ready && !node.schedulable);
}

/** Puts a node the server answered with into the cached node list and its detail, then refetches both. */
export function useNodeUpdate() {
  const client = useQueryClient();
  return (node: ClusterNode) => {
    client.setQueryData<ItemList<ClusterNode>>(clusterKeys.nodes(), (old) =>
      old ? { ...old, items: old.items.map((n) => (n.name === node.name ? node : n)) } : old,
    );
    client.setQueryData<NodeDetail>(clusterKeys.node(node.name), (old) => (old ? { ...old, node } : old));
    void client.invalidateQueries({ queryKey: clusterKeys.nodes() });
    void client.invalidateQueries({ queryKey: clusterKeys.node(node.name) });
  };
}
