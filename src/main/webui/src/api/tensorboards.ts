import type { OpenedApp } from './apps';
import { requestJson, requestVoid } from './client';
import type { CreateTensorboard, Tensorboard, TensorboardList } from './types';

const enc = encodeURIComponent;

export function listTensorboards(signal?: AbortSignal): Promise<TensorboardList> {
  return requestJson<TensorboardList>('/tensorboards', { signal });
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
