import { requestJson, requestVoid } from './client';
import type { DeviceAuthorization, LoginRequest, SessionResponse, SignInProviderList, User } from './types';

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

/** The OpenID Connect providers configured; anyone may ask (the sign-in page does). */
export function listSignInProviders(signal?: AbortSignal): Promise<SignInProviderList> {
  return requestJson<SignInProviderList>('/auth/oidc/providers', { signal, noAuthRetry: true });
}

/** Where a provider's button sends the browser: Crater redirects on to the provider. */
export function signInProviderUrl(name: string, returnTo: string): string {
  return `/api/v1/auth/oidc/${encodeURIComponent(name)}/start?returnTo=${encodeURIComponent(returnTo)}`;
}

/** A pending device sign-in by its user code (404 when unknown, expired or decided; 429 after too many misses). */
export function getDeviceAuthorization(userCode: string, signal?: AbortSignal): Promise<DeviceAuthorization> {
  return requestJson<DeviceAuthorization>(`/auth/device/${encodeURIComponent(userCode)}`, { signal });
}

/** Approves or denies a device sign-in: approved, its client gets a personal access token of the signed-in user. */
export function decideDeviceAuthorization(userCode: string, decision: 'approve' | 'deny'): Promise<void> {
  return requestVoid(`/auth/device/${encodeURIComponent(userCode)}/${decision}`, { method: 'POST' });
}
