/** Error raised for every failed API call: HTTP problems and network failures alike. */

/** One invalid input of a rejected request, e.g. {field: "items[0].max", message: "must be at least guaranteed"}. */
export interface FieldError {
  field: string;
  message: string;
}

/** A reason given as an object with a code and figures, e.g. why a job was rejected. */
export interface ProblemReason {
  code: string;
  message: string;
  numbers: Record<string, number>;
  /** The names it is about (`resource`, `node`, ...), as the server sends them. */
  args?: Record<string, string>;
}

export interface ApiErrorInit {
  status: number;
  code: string;
  title: string;
  detail?: string | undefined;
  reasons?: string[] | undefined;
  fieldErrors?: FieldError[] | undefined;
  problemReasons?: ProblemReason[] | undefined;
  type?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

/** Status used for failures where no HTTP response was received. */
export const NETWORK_ERROR_STATUS = 0;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly reasons: string[];
  /** The problem's `errors` list: which request fields were invalid and why. */
  readonly fieldErrors: FieldError[];
  /** The reasons that carry a code (e.g. job admission: {code, message, numbers}), kept as objects. */
  readonly problemReasons: ProblemReason[];
  readonly type: string | undefined;
  /** Seconds to wait before retrying, from the Retry-After header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.detail ? `${init.title}: ${init.detail}` : init.title);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.reasons = init.reasons ?? [];
    this.fieldErrors = init.fieldErrors ?? [];
    this.problemReasons = init.problemReasons ?? [];
    this.type = init.type;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  get isNetworkError(): boolean {
    return this.status === NETWORK_ERROR_STATUS;
  }

  /** Builds an error from a non-2xx response, reading an application/problem+json body when present. */
  static async fromResponse(res: Response): Promise<ApiError> {
    const body = await readJsonBody(res);
    const problem = isRecord(body) ? body : {};
    return new ApiError({
      status: res.status,
      code: stringField(problem, 'code') ?? defaultCode(res.status),
      title: stringField(problem, 'title') ?? (res.statusText || `HTTP ${res.status}`),
      detail: stringField(problem, 'detail'),
      type: stringField(problem, 'type'),
      reasons: parseReasons(problem['reasons']),
      fieldErrors: parseFieldErrors(problem['errors']),
      problemReasons: parseProblemReasons(problem['reasons']),
      retryAfterSeconds: parseRetryAfter(res.headers.get('Retry-After')),
    });
  }

  static network(cause: unknown): ApiError {
    const err = new ApiError({
      status: NETWORK_ERROR_STATUS,
      code: 'NetworkError',
      title: 'Network error',
      detail: cause instanceof Error ? cause.message : undefined,
    });
    return err;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/**
 * Parses a Retry-After header value: either delay-seconds or an HTTP-date.
 * Returns whole seconds (never negative), or undefined when absent or malformed.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number.parseInt(trimmed, 10);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

async function readJsonBody(res: Response): Promise<unknown> {
  const type = res.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return undefined;
  try {
    return (await res.json()) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Reasons may be plain strings or objects such as {field, message}; both become readable strings. */
function parseReasons(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const r of raw) {
    if (typeof r === 'string') {
      out.push(r);
    } else if (isRecord(r)) {
      const text = stringField(r, 'message') ?? stringField(r, 'detail') ?? stringField(r, 'reason');
      const field = stringField(r, 'field') ?? stringField(r, 'pointer');
      if (text) out.push(field ? `${field}: ${text}` : text);
      else out.push(JSON.stringify(r));
    }
  }
  return out;
}

/** The object reasons with a code, keeping their numeric figures and their names (other entries are dropped). */
function parseProblemReasons(raw: unknown): ProblemReason[] {
  if (!Array.isArray(raw)) return [];
  const out: ProblemReason[] = [];
  for (const r of raw) {
    if (!isRecord(r)) continue;
    const code = stringField(r, 'code');
    if (code === undefined) continue;
    const numbers: Record<string, number> = {};
    const rawNumbers = r['numbers'];
    if (isRecord(rawNumbers)) {
      for (const [k, v] of Object.entries(rawNumbers)) if (typeof v === 'number' && Number.isFinite(v)) numbers[k] = v;
    }
    const reason: ProblemReason = { code, message: stringField(r, 'message') ?? '', numbers };
    const rawArgs = r['args'];
    if (isRecord(rawArgs)) {
      const args: Record<string, string> = {};
      for (const [k, v] of Object.entries(rawArgs)) if (typeof v === 'string') args[k] = v;
      reason.args = args;
    }
    out.push(reason);
  }
  return out;
}

function parseFieldErrors(raw: unknown): FieldError[] {
  if (!Array.isArray(raw)) return [];
  const out: FieldError[] = [];
  for (const e of raw) {
    if (!isRecord(e)) continue;
    const message = stringField(e, 'message');
    if (message === undefined) continue;
    out.push({ field: stringField(e, 'field') ?? '', message });
  }
  return out;
}

/** Message for one field of a rejected request (exact path match), if the server named it. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!isApiError(error)) return undefined;
  return error.fieldErrors.find((f) => f.field === field)?.message;
}

function defaultCode(status: number): string {
  switch (status) {
    case 400:
      return 'BadRequest';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'NotFound';
    case 409:
      return 'Conflict';
    case 429:
      return 'TooManyRequests';
    default:
      return status >= 500 ? 'ServerError' : 'HttpError';
  }
}
