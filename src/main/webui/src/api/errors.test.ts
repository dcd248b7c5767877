import { describe, expect, it } from 'vitest';
import { ApiError, fieldError, parseRetryAfter } from './errors';

function problemResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText: 'Status text',
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
}

describe('ApiError.fromResponse', () => {
  it('reads all problem+json fields', async () => {
    const res = problemResponse(422, {
      type: 'https://crater.dev/problems/validation',
      title: 'Validation failed',
      status: 422,
      detail: 'The request has 2 invalid fields.',
      code: 'ValidationFailed',
      reasons: ['name must not be blank', { field: 'gpus', message: 'must be at most 8' }],
    });
    const err = await ApiError.fromResponse(res);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toBeInstanceOf(Error);
    expect(err.status).toBe(422);
    expect(err.code).toBe('ValidationFailed');
    expect(err.title).toBe('Validation failed');
    expect(err.detail).toBe('The request has 2 invalid fields.');
    expect(err.type).toBe('https://crater.dev/problems/validation');
    expect(err.reasons).toEqual(['name must not be blank', 'gpus: must be at most 8']);
    expect(err.retryAfterSeconds).toBeUndefined();
    expect(err.isNetworkError).toBe(false);
  });

  it('reads Retry-After on a throttled login', async () => {
    const res = problemResponse(
      429,
      { title: 'Too many attempts', status: 429, code: 'TooManyAttempts', detail: 'Wait a bit.' },
      { 'Retry-After': '42' },
    );
    const err = await ApiError.fromResponse(res);
    expect(err.status).toBe(429);
    expect(err.code).toBe('TooManyAttempts');
    expect(err.retryAfterSeconds).toBe(42);
  });

  it('keeps coded reasons with their numbers and names', async () => {
    const res = problemResponse(422, {
      title: 'Unprocessable',
      status: 422,
      code: 'JobRejected',
      detail: 'the job can never run on this cluster',
      reasons: [
        {
          code: 'PodLargerThanAnyNode',
          message: 'a pod asks for 16 nvidia-a100-80gb but the largest matching node offers 8',
          numbers: { requested: 16000, largestNode: 8000, bogus: 'x' },
          args: { resource: 'nvidia-a100-80gb', count: 3 },
        },
        'plain text',
      ],
    });
    const err = await ApiError.fromResponse(res);
    expect(err.reasons).toEqual(['a pod asks for 16 nvidia-a100-80gb but the largest matching node offers 8', 'plain text']);
    expect(err.problemReasons).toEqual([
      {
        code: 'PodLargerThanAnyNode',
        message: 'a pod asks for 16 nvidia-a100-80gb but the largest matching node offers 8',
        numbers: { requested: 16000, largestNode: 8000 },
        args: { resource: 'nvidia-a100-80gb' },
      },
    ]);
  });

  it('falls back to the HTTP status when the body is not a problem', async () => {
    const res = new Response('<html>Bad gateway</html>', {
      status: 502,
      statusText: 'Bad Gateway',
      headers: { 'Content-Type': 'text/html' },
    });
    const err = await ApiError.fromResponse(res);
    expect(err.status).toBe(502);
    expect(err.code).toBe('ServerError');
    expect(err.title).toBe('Bad Gateway');
    expect(err.detail).toBeUndefined();
    expect(err.reasons).toEqual([]);
  });

  it('survives a malformed JSON body', async () => {
    const res = new Response('{not json', { status: 401, headers: { 'Content-Type': 'application/problem+json' } });
    const err = await ApiError.fromResponse(res);
    expect(err.status).toBe(401);
    expect(err.code).toBe('Unauthorized');
  });

  it('marks network failures', () => {
    const err = ApiError.network(new TypeError('Failed to fetch'));
    expect(err.status).toBe(0);
    expect(err.isNetworkError).toBe(true);
    expect(err.code).toBe('NetworkError');
    expect(err.detail).toBe('Failed to fetch');
  });
});

describe('field errors', () => {
  it('reads the errors list of a validation problem', async () => {
    const res = problemResponse(400, {
      title: 'Bad request',
      status: 400,
      code: 'ValidationFailed',
      errors: [
        { field: 'items[0].max', message: 'must not be less than guaranteed' },
        { field: 'items[1].resource', message: 'unknown resource' },
        { nothing: true },
      ],
    });
    const err = await ApiError.fromResponse(res);
    expect(err.fieldErrors).toEqual([
      { field: 'items[0].max', message: 'must not be less than guaranteed' },
      { field: 'items[1].resource', message: 'unknown resource' },
    ]);
    expect(fieldError(err, 'items[1].resource')).toBe('unknown resource');
    expect(fieldError(err, 'items[2].max')).toBeUndefined();
    expect(fieldError(new Error('x'), 'items[0].max')).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('accepts seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter(' 7 ', now)).toBe(7);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
