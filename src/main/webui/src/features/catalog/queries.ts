import { queryOptions, useQuery } from '@tanstack/react-query';
import { listAcceleratorModels } from '../../api/acceleratorModels';

/** Query-key factory for the accelerator catalogue (/api/v1/accelerator-models). */
export const catalogKeys = {
  all: ['accelerator-models'] as const,
  list: () => [...catalogKeys.all, 'list'] as const,
};

export const acceleratorModelsQuery = () =>
  queryOptions({
    queryKey: catalogKeys.list(),
    queryFn: ({ signal }) => listAcceleratorModels(signal),
    staleTime: 60_000,
  });

export function useAcceleratorModels() {
  return useQuery(acceleratorModelsQuery());
}

/** Resource keys that can carry quota: cpu, memory and every catalogued accelerator model. */
export function quotaResourceKeys(models: readonly { key: string }[]): string[] {
  return ['cpu', 'memory', ...models.map((m) => m.key)];
}
