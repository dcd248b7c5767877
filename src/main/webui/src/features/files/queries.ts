import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { listFolder, listSpaces, listTrash, readTextStart } from '../../api/files';

/** Query-key factory for everything under /api/v1/spaces, /files and /trash. */
export const fileKeys = {
  all: ['files'] as const,
  spaces: () => [...fileKeys.all, 'spaces'] as const,
  folders: (space: string) => [...fileKeys.all, 'folder', space] as const,
  folder: (space: string, path: string) => [...fileKeys.folders(space), path] as const,
  trash: (space: string) => [...fileKeys.all, 'trash', space] as const,
  preview: (space: string, path: string, modified: string) => [...fileKeys.all, 'preview', space, path, modified] as const,
};

export const spacesQuery = () => queryOptions({ queryKey: fileKeys.spaces(), queryFn: ({ signal }) => listSpaces(signal) });

/** A folder, page by page through `nextCursor`. */
export const folderQuery = (space: string, path: string) =>
  infiniteQueryOptions({
    queryKey: fileKeys.folder(space, path),
    queryFn: ({ pageParam, signal }) => listFolder(space, path, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const trashQuery = (space: string) =>
  queryOptions({ queryKey: fileKeys.trash(space), queryFn: ({ signal }) => listTrash(space, signal) });

export const textPreviewQuery = (space: string, path: string, modified: string) =>
  queryOptions({
    queryKey: fileKeys.preview(space, path, modified),
    queryFn: ({ signal }) => readTextStart(space, path, signal),
    staleTime: 60_000,
  });
