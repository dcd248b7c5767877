import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCurrentAccount } from '../lib/currentAccount';
import { requestJson, requestText, requestVoid, setUnauthorizedHandler, withQuery } from './client';
import { ApiError } from './errors';

interface Call {
  url: string;
  init: RequestInit;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });
}

function mockFetch(...responses: Response[]): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, init });
      const next = responses.shift();
      if (!next) throw new Error(`unexpected request ${url}`);
      return Promise.resolve(next);
    }),
  );
  return calls;
}

function header(call: Call | undefined, name: string): string | undefined {
  return (call?.init.headers as Record<string, string> | undefined)?.[name];
}

const unauthorized = vi.fn();

beforeEach(() => {
  unauthorized.mockReset();
  setUnauthorizedHandler(unauthorized);
});

afterEach(() => {
  vi.unstubAllGlobals();
  setCurrentAccount(null);
});

describe('request client', () => {
  it('sends the CSRF header on non-GET requests only, always with same-origin credentials', async () => {
    const calls = mockFetch(json(200, { items: [] }), new Response(null, { status: 204 }));
    await requestJson('/cluster/nodes');
    await requestVoid('/auth/logout', { method: 'POST' });
    expect(calls[0]?.url).toBe('/api/v1/cluster/nodes');
    expect(header(calls[0], 'X-Requested-With')).toBeUndefined();
    expect(calls[0]?.init.credentials).toBe('same-origin');
    expect(calls[1]?.init.method).toBe('POST');
    expect(header(calls[1], 'X-Requested-With')).toBe('crater');
    expect(calls[1]?.init.credentials).toBe('same-origin');
  });

  it('refreshes the session once on 401 and retries the call', async () => {
    const calls = mockFetch(
      json(401, { status: 401, title: 'Unauthorized', code: 'TokenExpired' }),
      json(200, { accessToken: 't', expiresIn: 900, user: { id: '1', username: 'a', displayName: 'A', role: 'user' } }),
      json(200, { items: [{ model: 'x' }] }),
    );
    const result = await requestJson<{ items: { model: string }[] }>('/cluster/accelerators');
    expect(result.items[0]?.model).toBe('x');
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/cluster/accelerators', '/api/v1/auth/refresh', '/api/v1/cluster/accelerators']);
    expect(header(calls[1], 'X-Requested-With')).toBe('crater');
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('gives up and signals unauthorized when the refresh fails', async () => {
    const calls = mockFetch(
      json(401, { status: 401, title: 'Unauthorized', code: 'TokenExpired' }),
      json(401, { status: 401, title: 'Unauthorized', code: 'InvalidRefreshToken' }),
    );
    const error = await requestJson('/auth/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(calls).toHaveLength(2);
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not try to refresh for calls marked noAuthRetry (login)', async () => {
    const calls = mockFetch(json(401, { status: 401, title: 'Bad credentials', code: 'InvalidCredentials' }));
    const error = await requestJson('/auth/login', { method: 'POST', body: {}, noAuthRetry: true }).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('InvalidCredentials');
    expect(calls).toHaveLength(1);
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('turns a fetch failure into a network ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await requestJson('/cluster/nodes').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isNetworkError).toBe(true);
  });

  it('sends the selected account as X-Crater-Account on every call, and nothing without a selection', async () => {
    const calls = mockFetch(
      json(200, { items: [] }),
      json(200, { items: [] }),
      new Response(null, { status: 204 }),
      json(200, { items: [] }),
    );
    await requestJson('/cluster/nodes');
    expect(header(calls[0], 'X-Crater-Account')).toBeUndefined();

    setCurrentAccount('vision-lab');
    await requestJson('/accounts/vision-lab/members');
    await requestVoid('/me/tokens/t1', { method: 'DELETE' });
    expect(header(calls[1], 'X-Crater-Account')).toBe('vision-lab');
    expect(header(calls[2], 'X-Crater-Account')).toBe('vision-lab');
    expect(header(calls[2], 'X-Requested-With')).toBe('crater');

    setCurrentAccount('u-alice');
    await requestJson('/me');
    expect(header(calls[3], 'X-Crater-Account')).toBe('u-alice');
  });

  it('keeps the account header on the retry after a refresh', async () => {
    setCurrentAccount('vision-lab');
    const calls = mockFetch(
      json(401, { status: 401, title: 'Unauthorized', code: 'TokenExpired' }),
      json(200, { accessToken: 't', expiresIn: 900, user: { id: '1', username: 'a', displayName: 'A', role: 'user' } }),
      json(200, { items: [] }),
    );
    await requestJson('/accounts');
    expect(header(calls[2], 'X-Crater-Account')).toBe('vision-lab');
  });

  it('sends a string body with its own content type (CSV import)', async () => {
    const calls = mockFetch(json(200, { created: [], refused: [] }));
    await requestJson('/users/import', { method: 'POST', body: 'username\nbob\n', contentType: 'text/csv' });
    expect(header(calls[0], 'Content-Type')).toBe('text/csv');
    expect(calls[0]?.init.body).toBe('username\nbob\n');
  });

  it('reads plain text answers and asks for text (logs)', async () => {
    const calls = mockFetch(
      new Response('line 1\nline 2\n', { status: 200, headers: { 'Content-Type': 'text/plain' } }),
      json(403, { status: 403, title: 'Forbidden', code: 'LogsForbidden' }),
    );
    await expect(requestText('/jobs/j1/logs?tailLines=10')).resolves.toBe('line 1\nline 2\n');
    expect(header(calls[0], 'Accept')).toBe('text/plain');
    await expect(requestText('/jobs/j1/logs')).rejects.toMatchObject({ status: 403, code: 'LogsForbidden' });
  });
});

describe('withQuery', () => {
  it('adds only non-empty parameters, encoded', () => {
    expect(withQuery('/users', { q: 'a b', limit: 50, cursor: null })).toBe('/users?q=a+b&limit=50');
    expect(withQuery('/accounts', { q: '', cursor: undefined })).toBe('/accounts');
  });
});
