import { getCurrentAccount } from '../lib/currentAccount';
import { ApiError } from './errors';

export const API_BASE = '/api/v1';

/** Header the server requires on every cookie-authenticated non-GET request (CSRF guard). */
export const CSRF_HEADER = 'X-Requested-With';
export const CSRF_VALUE = 'crater';

/** Header naming the account (slug) the user acts in; sent on every call once an account is selected. */
export const ACCOUNT_HEADER = 'X-Crater-Account';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON, unless `contentType` is given and the body is a string (sent as-is). */
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal | undefined;
  /** When true a 401 is returned as-is: no refresh attempt and no redirect (login, refresh). */
  noAuthRetry?: boolean;
  /** The Accept header; JSON unless given (e.g. text/plain for logs). */
  accept?: string;
  /** The account to act in for this request instead of the current one (X-Crater-Account). */
  account?: string;
  /** Further request headers, e.g. an Idempotency-Key that makes a retried POST take effect once. */
  headers?: Record<string, string>;
}

type UnauthorizedHandler = () => void;

/** Appends the non-empty parameters as a query string: ('/users', {q: 'a', cursor: ''}) → '/users?q=a'. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

let onUnauthorized: UnauthorizedHandler = () => {
  if (window.location.pathname !== '/login') window.location.assign('/login');
};

/** Sets what happens when the session cannot be renewed (normally: go to the login page). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

let refreshInFlight: Promise<boolean> | null = null;

/**
 * Renews the session with the refresh cookie. Concurrent callers share one request.
 * Resolves true when the session was renewed, false when the server refused it.
 */
export function refreshSession(): Promise<boolean> {
  if (refreshInFlight === null) {
    refreshInFlight = send('/auth/refresh', { method: 'POST', noAuthRetry: true })
      .then((res) => res.ok)
      .finally(() => {
        refreshInFlight = null;
      });
  }
  return refreshInFlight;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { ...opts.headers, Accept: opts.accept ?? 'application/json' };
  if (method !== 'GET') headers[CSRF_HEADER] = CSRF_VALUE;
  const account = opts.account ?? getCurrentAccount();
  if (account) headers[ACCOUNT_HEADER] = account;
  let body: string | undefined;
  if (opts.body !== undefined) {
    if (opts.contentType !== undefined && typeof opts.body === 'string') {
      headers['Content-Type'] = opts.contentType;
      body = opts.body;
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
  }
  try {
    return await fetch(API_BASE + path, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw ApiError.network(e);
  }
}

async function sendWithAuth(path: string, opts: RequestOptions): Promise<Response> {
  const res = await send(path, opts);
  if (res.status !== 401 || opts.noAuthRetry) return res;
  const renewed = await refreshSession().catch(() => false);
  if (renewed) {
    const retried = await send(path, opts);
    if (retried.status !== 401) return retried;
    onUnauthorized();
    return retried;
  }
  onUnauthorized();
  return res;
}

/** Performs a JSON request; throws ApiError for any non-2xx answer or network failure. */
export async function requestJson<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await sendWithAuth(path, opts);
  if (!res.ok) throw await ApiError.fromResponse(res);
  return (await res.json()) as T;
}

/** Performs a request whose answer is plain text (e.g. logs); throws ApiError like requestJson. */
export async function requestText(path: string, opts: RequestOptions = {}): Promise<string> {
  const res = await sendWithAuth(path, { accept: 'text/plain', ...opts });
  if (!res.ok) throw await ApiError.fromResponse(res);
  return res.text();
}

/** Performs a request whose successful answer carries no body (e.g. 204). */
export async function requestVoid(path: string, opts: RequestOptions = {}): Promise<void> {
  const res = await sendWithAuth(path, opts);
  if (!res.ok) throw await ApiError.fromResponse(res);
}
