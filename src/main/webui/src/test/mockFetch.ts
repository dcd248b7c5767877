import { vi } from 'vitest';

/** One request the page made: method, path with its query, headers and the parsed JSON body. */
export interface SentRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer: a status and a JSON body (a problem+json for 4xx and 5xx). */
export interface Answer {
  status?: number;
  body?: unknown;
}

type Route = (req: SentRequest) => Answer | undefined;

export function json(body: unknown, status = 200): Answer {
  return { status, body };
}

/**
 * Replaces fetch with `routes`, keyed "METHOD /api/v1/path" (without the query). A route is an answer or a
 * function of the request; a request no route names fails the test. Returns the requests as they are sent.
 */
export function mockFetch(routes: Record<string, Answer | Route | (Answer | Route)[]>): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit = {}) => {
      const parsed = new URL(url, 'http://console.test');
      const req: SentRequest = {
        method: init.method ?? 'GET',
        url,
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: (init.headers ?? {}) as Record<string, string>,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      sent.push(req);
      const key = `${req.method} ${req.path}`;
      let route = routes[key];
      // A list answers its requests in turn; the last answer repeats.
      if (Array.isArray(route)) route = route.length > 1 ? route.shift() : route[0];
      const answer = typeof route === 'function' ? route(req) : route;
      if (answer === undefined) return Promise.reject(new Error(`unexpected request ${key}`));
      const status = answer.status ?? 200;
      return Promise.resolve(
        new Response(JSON.stringify(answer.body ?? {}), {
          status,
          headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
        }),
      );
    }),
  );
  return sent;
}

/** A problem+json body with field errors, as the server sends for invalid input. */
export function problem(status: number, code: string, detail: string, errors: { field: string; message: string }[] = []): Answer {
  return { status, body: { type: 'about:blank', title: status === 400 ? 'Bad Request' : 'Error', status, code, detail, errors } };
}
