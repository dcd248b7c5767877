import { queryOptions } from '@tanstack/react-query';
import { getTemplate, listTemplates, listTemplateVersions } from '../../api/templates';
import type { JobKind } from '../../api/types';

/** Query-key factory for everything under /api/v1/templates. */
export const templateKeys = {
  all: ['templates'] as const,
  lists: () => [...templateKeys.all, 'list'] as const,
  list: (kind: JobKind | '') => [...templateKeys.lists(), { kind }] as const,
  details: () => [...templateKeys.all, 'detail'] as const,
  /** One version of a template; `latest` when no version is asked for. */
  detail: (id: string, version?: number) => [...templateKeys.details(), id, version ?? 'latest'] as const,
  versions: (id: string) => [...templateKeys.all, 'versions', id] as const,
};

export const templateListQuery = (kind: JobKind | '' = '') =>
  queryOptions({
    queryKey: templateKeys.list(kind),
    queryFn: ({ signal }) => listTemplates(kind, signal),
    staleTime: 30_000,
  });

export const templateQuery = (id: string, version?: number) =>
  queryOptions({
    queryKey: templateKeys.detail(id, version),
    queryFn: ({ signal }) => getTemplate(id, version, signal),
    staleTime: 30_000,
  });

export const templateVersionsQuery = (id: string) =>
  queryOptions({
    queryKey: templateKeys.versions(id),
    queryFn: ({ signal }) => listTemplateVersions(id, signal),
  });
