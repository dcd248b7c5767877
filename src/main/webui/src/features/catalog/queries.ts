import { queryOptions, useQuery } from '@tanstack/react-query';
import { listAcceleratorModels, listModelProposals } from '../../api/acceleratorModels';

/** Query-key factory for the accelerator catalogue (/api/v1/accelerator-models). */
export const catalogKeys = {
  all: ['accelerator-models'] as const,
  list: () => [...catalogKeys.all, 'list'] as const,
  proposals: () => [...catalogKeys.all, 'proposals'] as const,
};

/** Models the nodes publish that the catalogue lacks (platform admins). */
export const modelProposalsQuery = () =>
  queryOptions({
    queryKey: catalogKeys.proposals(),
    queryFn: ({ signal }) => listModelProposals(signal),
  });

export const acceleratorModelsQuery = () =>
  queryOptions({
    queryKey: catalogKeys.list(),
    queryFn: ({ signal }) => listAcceleratorModels(signal),
    staleTime: 60_000,
  });

export function useAcceleratorModels() {
  return useQuery(acceleratorModelsQuery());
}

/** Display names of the catalogued accelerator models (the key itself for anything else). */
export function useModelNames(): (key: string) => string {
  const models = useAcceleratorModels();
  const names = new Map((models.data?.items ?? []).map((m) => [m.key, m.displayName]));
  return (key) => names.get(key) ?? key;
}
