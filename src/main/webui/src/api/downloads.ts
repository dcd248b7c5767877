import { requestJson } from './client';
import type { CreateDownload, Download, DownloadPage } from './types';

export type { CreateDownload, Download } from './types';

export function listDownloads(signal?: AbortSignal): Promise<DownloadPage> {
  return requestJson<DownloadPage>('/assets/downloads?limit=200', { signal });
}

export function createDownload(body: CreateDownload): Promise<Download> {
  return requestJson<Download>('/assets/downloads', { method: 'POST', body });
}

export function downloadAction(id: string, action: 'pause' | 'resume' | 'retry'): Promise<Download> {
  return requestJson<Download>(`/assets/downloads/${encodeURIComponent(id)}/${action}`, { method: 'POST', body: {} });
}
