import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getGpus, type GpuFilter } from '../../api/gpus';

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
