import * as tus from 'tus-js-client';
import { getCurrentAccount } from '../lib/currentAccount';
import { ACCOUNT_HEADER, API_BASE, CSRF_HEADER, CSRF_VALUE } from './client';
import { ApiError } from './errors';

/** Where resumable uploads are created (tus 1.0, docs/storage.md). */
export const UPLOADS_ENDPOINT = `${API_BASE}/uploads`;

/** Files above this many bytes go as resumable uploads; smaller ones as one plain PUT. */
export const RESUMABLE_ABOVE = 8 * 1024 * 1024;

/** Whether a file of this size is uploaded resumably. */
export function isResumable(size: number): boolean {
  return size > RESUMABLE_ABOVE;
}

/** Bytes per PATCH: small enough that an interrupted upload loses little, large enough to keep requests few. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Waits between tries of a request that may succeed again (a network error, a 5xx, a lock, a stale offset). They add
 * up to more than the server's hold of a PATCH (crater.files.tus.lock-for, 20 s), so an upload whose replica died
 * mid-PATCH goes on through another once that hold lapses.
 */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 10000];

/** What the server is told about an upload: the space, the file's path in it, and whether it may replace a file. */
export function tusMetadata(space: string, path: string, name: string, overwrite: boolean): Record<string, string> {
  return { space, path, filename: name, overwrite: overwrite ? 'true' : 'false' };
}

/**
 * The key an unfinished upload is remembered by (in localStorage, so a reload finds it again): the same file to
 * the same place. The file's name, size and modification time stand for its content, as tus-js-client's own does.
 */
export function uploadFingerprint(space: string, path: string, file: { name: string; size: number; lastModified: number }): string {
  return ['crater-tus', space, path, file.name, file.size, file.lastModified].join('|');
}

/**
 * Whether a failed request is worth another try: no answer at all, a 5xx, 423 (another request still holds the
 * upload) and a 409 on a PATCH (the offset moved; the retry asks the server for it first). A refusal such as an
 * existing file (409 on creation), a quota (413) or a missing upload (404) is final.
 */
export function shouldRetry(status: number, method: string): boolean {
  if (status === 0 || status >= 500) return true;
  if (status === 423) return true;
  return status === 409 && method.toUpperCase() === 'PATCH';
}

/** The error a failed tus request becomes: the server's problem+json as an ApiError, or a network error. */
export async function errorOf(e: Error): Promise<Error> {
  const res = e instanceof tus.DetailedError ? e.originalResponse : null;
  if (!res || res.getStatus() === 0) return ApiError.network(e);
  const headers = { 'Content-Type': res.getHeader('Content-Type') ?? '' };
  return ApiError.fromResponse(new Response(res.getBody() || null, { status: res.getStatus(), headers }));
}

export interface ResumableHandle {
  /** Settles when the file is complete, or rejects with an ApiError (or an AbortError when cancelled). */
  done: Promise<void>;
  /** Stops sending; the server keeps the upload and what it received. */
  pause: () => void;
  /** Goes on from the offset the server holds. */
  resume: () => void;
  /** Stops and terminates the upload on the server (its reserved quota is released). */
  cancel: () => void;
}

/**
 * Uploads a file resumably with tus-js-client. A previous unfinished upload of the same file to the same place (this
 * page's, or one from before a reload) is found by its fingerprint and continued from the server's offset.
 */
export function uploadResumable(
  space: string,
  path: string,
  file: File,
  opts: { overwrite?: boolean; onProgress?: (loaded: number, total: number) => void } = {},
): ResumableHandle {
  let reject: (e: unknown) => void = () => {};
  let resolve: () => void = () => {};
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_VALUE };
  const account = getCurrentAccount();
  if (account) headers[ACCOUNT_HEADER] = account;
  const upload = new tus.Upload(file, {
    endpoint: UPLOADS_ENDPOINT,
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS,
    headers,
    metadata: tusMetadata(space, path, file.name, opts.overwrite ?? false),
    fingerprint: () => Promise.resolve(uploadFingerprint(space, path, file)),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onShouldRetry: (err) => shouldRetry(err.originalResponse?.getStatus() ?? 0, err.originalRequest?.getMethod() ?? ''),
    onProgress: (sent, total) => opts.onProgress?.(sent, total),
    onSuccess: () => resolve(),
    onError: (e) => {
      errorOf(e).then(reject, reject);
    },
  });
  let started = false;
  const start = () => {
    if (started) {
      upload.start();
      return;
    }
    started = true;
    upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous[0];
        if (last) upload.resumeFromPreviousUpload(last);
        upload.start();
      })
      .catch(() => upload.start());
  };
  start();
  return {
    done,
    pause: () => void upload.abort(false),
    resume: start,
    cancel: () => {
      void upload.abort(true).catch(() => {});
      reject(new DOMException('cancelled', 'AbortError'));
    },
  };
}
