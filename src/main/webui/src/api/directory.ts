import { requestJson } from './client';
import type { DirectoryStatus, DirectorySyncResult } from './types';

/** The sign-in directory and its last sync (platform admins). */
export function getDirectory(signal?: AbortSignal): Promise<DirectoryStatus> {
  return requestJson<DirectoryStatus>('/directory', { signal });
}

/** Runs a directory sync now and answers with its result (platform admins). */
export function syncDirectory(): Promise<DirectorySyncResult> {
  return requestJson<DirectorySyncResult>('/directory/sync', { method: 'POST' });
}
