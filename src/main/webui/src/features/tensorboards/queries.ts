import { queryOptions } from '@tanstack/react-query';
import { listTensorboards } from '../../api/tensorboards';

/** Query-key factory for /api/v1/tensorboards. */
export const tensorboardKeys = {
  all: ['tensorboards'] as const,
  list: () => [...tensorboardKeys.all, 'list'] as const,
};

/** One's panels; refreshed every 5 s while a panel starts or stops. */
export const tensorboardsQuery = () =>
  queryOptions({
    queryKey: tensorboardKeys.list(),
    queryFn: ({ signal }) => listTensorboards(signal),
    refetchInterval: (q) => (q.state.data?.items.some((p) => p.state !== 'Running' && p.state !== 'Stopped') ? 5000 : false),
  });
