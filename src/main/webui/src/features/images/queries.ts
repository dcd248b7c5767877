import { queryOptions } from '@tanstack/react-query';
import { listImageBuilds } from '../../api/imageBuilds';
import { listImages, type ImageFilter } from '../../api/images';
import { isRunning } from './buildForm';

/** Query-key factory for /api/v1/images. */
export const imageKeys = {
  all: ['images'] as const,
  lists: () => [...imageKeys.all, 'list'] as const,
  list: (f: ImageFilter) => [...imageKeys.lists(), f] as const,
};

export const imagesQuery = (f: ImageFilter) =>
  queryOptions({ queryKey: imageKeys.list(f), queryFn: ({ signal }) => listImages(f, signal) });

/** Query-key factory for /api/v1/images/builds. */
export const buildKeys = {
  all: ['imageBuilds'] as const,
  list: (all: boolean) => [...buildKeys.all, 'list', { all }] as const,
};

/** Builds, newest first; refreshed every 5 s while one is still building or being checked after its push. */
export const imageBuildsQuery = (all: boolean) =>
  queryOptions({
    queryKey: buildKeys.list(all),
    queryFn: ({ signal }) => listImageBuilds({ all, limit: 100 }, signal),
    refetchInterval: (q) => (q.state.data?.items.some((b) => isRunning(b.state)) ? BUILD_POLL_MS : false),
  });

export const BUILD_POLL_MS = 5000;
