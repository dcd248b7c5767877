import { queryOptions } from '@tanstack/react-query';
import { listAssets, type AssetFilter } from '../../api/assets';

/** Query-key factory for /api/v1/assets. */
export const assetKeys = {
  all: ['assets'] as const,
  lists: () => [...assetKeys.all, 'list'] as const,
  list: (f: AssetFilter) => [...assetKeys.lists(), f] as const,
};

export const assetsQuery = (f: AssetFilter) =>
  queryOptions({ queryKey: assetKeys.list(f), queryFn: ({ signal }) => listAssets(f, signal) });
