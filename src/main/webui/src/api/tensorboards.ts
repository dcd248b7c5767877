import type { OpenedApp } from './apps';
import { requestJson, requestVoid } from './client';

const enc = encodeURIComponent;

/** A log folder as asked for: a space's folder (`space`, `path`) or a job's working directory (`job`). */
export interface TensorboardSourceRequest {
  space?: string;
  path?: string;
  job?: string;
  /** The prefix of its runs in TensorBoard; by default the folder's last name or the job's id. */
  name?: string;
}

export interface CreateTensorboard {
  name: string;
  sources: TensorboardSourceRequest[];
}

/** A log folder as the panel shows it. */
export interface TensorboardSource {
  name: string;
  space: string;
  path: string;
  job: string | null;
  mountPath: string;
}

/** A TensorBoard panel (docs/assets.md): its server job's state while it runs, else `Stopped`. */
export interface Tensorboard {
  id: string;
  name: string;
  account: string | null;
  state: string;
  job: string | null;
  stoppedReason: string | null;
  startedAt: string | null;
  stoppedAt: string | null;
  lastUsedAt: string | null;
  sources: TensorboardSource[];
  createdAt: string;
}

export function listTensorboards(signal?: AbortSignal): Promise<{ items: Tensorboard[] }> {
  return requestJson<{ items: Tensorboard[] }>('/tensorboards', { signal });
}

export function createTensorboard(body: CreateTensorboard): Promise<Tensorboard> {
  return requestJson<Tensorboard>('/tensorboards', { method: 'POST', body });
}

export function stopTensorboard(id: string): Promise<Tensorboard> {
  return requestJson<Tensorboard>(`/tensorboards/${enc(id)}/stop`, { method: 'POST' });
}

export function startTensorboard(id: string): Promise<Tensorboard> {
  return requestJson<Tensorboard>(`/tensorboards/${enc(id)}/start`, { method: 'POST' });
}

export function deleteTensorboard(id: string): Promise<void> {
  return requestVoid(`/tensorboards/${enc(id)}`, { method: 'DELETE' });
}

/** A one-time URL into the running panel on its server job's origin. */
export function openTensorboard(id: string): Promise<OpenedApp> {
  return requestJson<OpenedApp>(`/tensorboards/${enc(id)}/open`, { method: 'POST' });
}
