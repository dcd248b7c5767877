import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getFreeAccelerators, getGpuHistory, getGpus, type GpuFilter } from '../../api/gpus';

/** How often the page reads the cards again. */
export const GPU_REFRESH_MS = 5000;

export const gpuKeys = {
  all: ['gpus'] as const,
  overview: (filter: GpuFilter) => [...gpuKeys.all, filter.minFree, filter.model] as const,
};

export const gpusQuery = (filter: GpuFilter) =>
  queryOptions({
    queryKey: gpuKeys.overview(filter),
    queryFn: ({ signal }) => getGpus(filter, signal),
  });

export function useGpus(filter: GpuFilter) {
  return useQuery({ ...gpusQuery(filter), refetchInterval: GPU_REFRESH_MS, placeholderData: keepPreviousData });
}

/** How often the history is read again: settlement adds to the hourly rollup every minute. */
export const GPU_HISTORY_REFRESH_MS = 60_000;

export const gpuHistoryKeys = {
  all: ['gpu-history'] as const,
  span: (hours: number) => [...gpuHistoryKeys.all, hours] as const,
};

export const gpuHistoryQuery = (hours: number) =>
  queryOptions({
    queryKey: gpuHistoryKeys.span(hours),
    queryFn: ({ signal }) => getGpuHistory(hours, signal),
  });

export function useGpuHistory(hours: number) {
  return useQuery({ ...gpuHistoryQuery(hours), refetchInterval: GPU_HISTORY_REFRESH_MS, placeholderData: keepPreviousData });
}

/** How often the free cards are read again. */
export const FREE_REFRESH_MS = 15_000;

export const freeAcceleratorKeys = {
  all: ['free-accelerators'] as const,
};

export const freeAcceleratorsQuery = () =>
  queryOptions({
    queryKey: freeAcceleratorKeys.all,
    queryFn: ({ signal }) => getFreeAccelerators(signal),
  });

export function useFreeAccelerators() {
  return useQuery({ ...freeAcceleratorsQuery(), refetchInterval: FREE_REFRESH_MS });
}
