import { requestJson, requestVoid } from './client';
import type { LoginRequest, SessionResponse, User } from './types';

export function login(body: LoginRequest): Promise<SessionResponse> {
  return requestJson<SessionResponse>('/auth/login', { method: 'POST', body, noAuthRetry: true });
}

export function refresh(): Promise<SessionResponse> {
  return requestJson<SessionResponse>('/auth/refresh', { method: 'POST', noAuthRetry: true });
}

export function logout(): Promise<void> {
  return requestVoid('/auth/logout', { method: 'POST', noAuthRetry: true });
}

export function getMe(signal?: AbortSignal): Promise<User> {
  return requestJson<User>('/auth/me', { signal });
}
