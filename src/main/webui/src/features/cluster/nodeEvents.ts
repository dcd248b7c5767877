import type { ClusterNode, ItemList, NodeDetail, NodeEvent } from '../../api/types';

/**
 * Applies one node event to the cached node list and returns the new list.
 * "updated" replaces the node with the same name (or appends a new one); "deleted" removes it.
 * Without a cached list there is nothing to patch: the next fetch brings the full state.
 */
export function applyNodeEvent(list: ItemList<ClusterNode> | undefined, event: NodeEvent): ItemList<ClusterNode> | undefined {
  if (list === undefined) return undefined;
  const name = event.node.name;
  if (event.type === 'deleted') {
    return { ...list, items: list.items.filter((n) => n.name !== name) };
  }
  const index = list.items.findIndex((n) => n.name === name);
  if (index === -1) return { ...list, items: [...list.items, event.node] };
  const items = list.items.slice();
  items[index] = event.node;
  return { ...list, items };
}

/**
 * Applies one node event to a node's cached detail: "updated" replaces its node (status, allocation, labels);
 * "deleted" leaves it for the refetch, which answers that the node is gone.
 */
export function applyNodeEventToDetail(detail: NodeDetail | undefined, event: NodeEvent): NodeDetail | undefined {
  if (detail === undefined || event.type === 'deleted' || detail.node.name !== event.node.name) return detail;
  return { ...detail, node: event.node };
}

/** Parses the data of a `node` event; returns null for anything malformed. */
export function parseNodeEvent(data: string): NodeEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, node } = value as { type?: unknown; node?: unknown };
  if (type !== 'updated' && type !== 'deleted') return null;
  if (typeof node !== 'object' || node === null) return null;
  if (typeof (node as { name?: unknown }).name !== 'string') return null;
  return { type, node: node as ClusterNode };
}
