import { requestJson } from './client';

/** A download from a model hub (docs/assets.md, "Downloads from a hub"); bytes in bytes. */
export interface Download {
  id: string;
  kind: 'dataset' | 'model';
  hub: string;
  endpoint: string;
  repository: string;
  revision: string;
  sha: string;
  include: string[];
  exclude: string[];
  credential: string | null;
  name: string;
  owner: string;
  space: string;
  path: string;
  visibility: 'private' | 'account' | 'public';
  account: string | null;
  state: 'running' | 'paused' | 'succeeded' | 'failed';
  reason: string;
  message: string;
  warnings: string[];
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  files: number;
  percent: number;
  job: string | null;
  asset: string | null;
  deduplicated: boolean;
  mayEdit: boolean;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface CreateDownload {
  kind: 'dataset' | 'model';
  hub: 'huggingface';
  repository: string;
  revision?: string;
  include?: string[];
  exclude?: string[];
  credential?: string;
  name: string;
  space: string;
  path: string;
  visibility?: 'private' | 'account' | 'public';
}

export function listDownloads(signal?: AbortSignal): Promise<{ items: Download[] }> {
  return requestJson<{ items: Download[] }>('/assets/downloads?limit=200', { signal });
}

export function createDownload(body: CreateDownload): Promise<Download> {
  return requestJson<Download>('/assets/downloads', { method: 'POST', body });
}

export function downloadAction(id: string, action: 'pause' | 'resume' | 'retry'): Promise<Download> {
  return requestJson<Download>(`/assets/downloads/${encodeURIComponent(id)}/${action}`, { method: 'POST', body: {} });
}
