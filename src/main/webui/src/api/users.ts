import { requestJson, withQuery } from './client';
import type { ImportReport, ManagedUser, Page, UserCreate, UserCreated, UserUpdate } from './types';

const enc = encodeURIComponent;

export interface UserListParams {
  q?: string;
  limit?: number;
  cursor?: string | null;
}

export function listUsers(params: UserListParams, signal?: AbortSignal): Promise<Page<ManagedUser>> {
  return requestJson<Page<ManagedUser>>(withQuery('/users', { ...params }), { signal });
}

export function createUser(body: UserCreate): Promise<UserCreated> {
  return requestJson<UserCreated>('/users', { method: 'POST', body });
}

export function updateUser(username: string, body: UserUpdate): Promise<ManagedUser> {
  return requestJson<ManagedUser>(`/users/${enc(username)}`, { method: 'PATCH', body });
}

export function resetUserPassword(username: string): Promise<{ password: string }> {
  return requestJson<{ password: string }>(`/users/${enc(username)}/password-reset`, { method: 'POST' });
}

/** Creates users from CSV text (header `username,displayName,email,password,account,accountRole`). */
export function importUsers(csv: string): Promise<ImportReport> {
  return requestJson<ImportReport>('/users/import', { method: 'POST', body: csv, contentType: 'text/csv' });
}
