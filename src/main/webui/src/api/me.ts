import { requestJson, requestVoid } from './client';
import type { AccessToken, CreatedAccessToken, ItemList, Me, Notification, PasswordChange, ProfileUpdate, SshKey } from './types';

const enc = encodeURIComponent;

export function getMyProfile(signal?: AbortSignal): Promise<Me> {
  return requestJson<Me>('/me', { signal });
}

export function updateMyProfile(body: ProfileUpdate): Promise<Me> {
  return requestJson<Me>('/me', { method: 'PATCH', body });
}

export function changeMyPassword(body: PasswordChange): Promise<void> {
  return requestVoid('/me/password', { method: 'POST', body });
}

export function listMyTokens(signal?: AbortSignal): Promise<ItemList<AccessToken>> {
  return requestJson<ItemList<AccessToken>>('/me/tokens', { signal });
}

export function createMyToken(body: { name: string; expiresAt?: string }): Promise<CreatedAccessToken> {
  return requestJson<CreatedAccessToken>('/me/tokens', { method: 'POST', body });
}

export function revokeMyToken(id: string): Promise<void> {
  return requestVoid(`/me/tokens/${enc(id)}`, { method: 'DELETE' });
}

export function listMySshKeys(signal?: AbortSignal): Promise<ItemList<SshKey>> {
  return requestJson<ItemList<SshKey>>('/me/ssh-keys', { signal });
}

export function addMySshKey(body: { name: string; publicKey: string }): Promise<SshKey> {
  return requestJson<SshKey>('/me/ssh-keys', { method: 'POST', body });
}

export function deleteMySshKey(id: string): Promise<void> {
  return requestVoid(`/me/ssh-keys/${enc(id)}`, { method: 'DELETE' });
}

export function listMyNotifications(signal?: AbortSignal): Promise<ItemList<Notification>> {
  return requestJson<ItemList<Notification>>('/me/notifications', { signal });
}

export function markNotificationRead(id: string): Promise<void> {
  return requestVoid(`/me/notifications/${enc(id)}/read`, { method: 'POST' });
}
