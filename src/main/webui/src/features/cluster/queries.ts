import { queryOptions, useQuery } from '@tanstack/react-query';
import { getNodeDetail, getNodeHealth, getReadiness, listAccelerators, listNodes } from '../../api/cluster';

/** Query-key factory for everything under /api/v1/cluster. */
export const clusterKeys = {
  all: ['cluster'] as const,
  nodes: () => [...clusterKeys.all, 'nodes'] as const,
  node: (name: string) => [...clusterKeys.all, 'node', name] as const,
  /** Under the node's key: refreshing the node refreshes its health too. */
  health: (name: string) => [...clusterKeys.node(name), 'health'] as const,
  accelerators: () => [...clusterKeys.all, 'accelerators'] as const,
  readiness: () => [...clusterKeys.all, 'readiness'] as const,
};

export const nodesQuery = () =>
  queryOptions({
    queryKey: clusterKeys.nodes(),
    queryFn: ({ signal }) => listNodes(signal),
  });

export const nodeDetailQuery = (name: string) =>
  queryOptions({
    queryKey: clusterKeys.node(name),
    queryFn: ({ signal }) => getNodeDetail(name, signal),
  });

export const nodeHealthQuery = (name: string) =>
  queryOptions({
    queryKey: clusterKeys.health(name),
    queryFn: ({ signal }) => getNodeHealth(name, signal),
  });

export const acceleratorsQuery = () =>
  queryOptions({
    queryKey: clusterKeys.accelerators(),
    queryFn: ({ signal }) => listAccelerators(signal),
  });

export const readinessQuery = () =>
  queryOptions({
    queryKey: clusterKeys.readiness(),
    queryFn: ({ signal }) => getReadiness(signal),
  });

export function useNodes() {
  return useQuery(nodesQuery());
}

export function useAccelerators(refetchInterval: number | false = false) {
  return useQuery({ ...acceleratorsQuery(), refetchInterval });
}

/** How often a node's detail is read again: its events do not come through the node stream. */
export const NODE_DETAIL_REFRESH_MS = 30_000;

export function useNodeDetail(name: string) {
  return useQuery({ ...nodeDetailQuery(name), refetchInterval: NODE_DETAIL_REFRESH_MS });
}

export function useNodeHealth(name: string) {
  return useQuery({ ...nodeHealthQuery(name), refetchInterval: NODE_DETAIL_REFRESH_MS });
}
