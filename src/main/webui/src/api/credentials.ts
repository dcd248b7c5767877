import { requestJson, requestVoid } from './client';
import type { CreateCredential, Credential, ItemList, ReplaceCredential } from './types';

const enc = encodeURIComponent;

export function listMyCredentials(signal?: AbortSignal): Promise<ItemList<Credential>> {
  return requestJson<ItemList<Credential>>('/me/credentials', { signal });
}

export function createMyCredential(body: CreateCredential): Promise<Credential> {
  return requestJson<Credential>('/me/credentials', { method: 'POST', body });
}

export function replaceMyCredential(name: string, body: ReplaceCredential): Promise<Credential> {
  return requestJson<Credential>(`/me/credentials/${enc(name)}`, { method: 'PUT', body });
}

export function deleteMyCredential(name: string): Promise<void> {
  return requestVoid(`/me/credentials/${enc(name)}`, { method: 'DELETE' });
}
