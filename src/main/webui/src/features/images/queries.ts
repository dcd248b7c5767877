import { queryOptions } from '@tanstack/react-query';
import { listImages, type ImageFilter } from '../../api/images';

/** Query-key factory for /api/v1/images. */
export const imageKeys = {
  all: ['images'] as const,
  lists: () => [...imageKeys.all, 'list'] as const,
  list: (f: ImageFilter) => [...imageKeys.lists(), f] as const,
};

export const imagesQuery = (f: ImageFilter) =>
  queryOptions({ queryKey: imageKeys.list(f), queryFn: ({ signal }) => listImages(f, signal) });
