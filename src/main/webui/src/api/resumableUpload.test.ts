import { afterEach, describe, expect, it, vi } from 'vitest';

interface FakeUpload {
  options: Record<string, unknown>;
  start: ReturnType<typeof vi.fn>;
  abort: ReturnType<typeof vi.fn>;
  findPreviousUploads: ReturnType<typeof vi.fn>;
  resumeFromPreviousUpload: ReturnType<typeof vi.fn>;
}

const made: FakeUpload[] = [];
const first = (): FakeUpload => {
  const u = made[0];
  if (!u) throw new Error('no upload was made');
  return u;
};
let previous: unknown[] = [];

vi.mock('tus-js-client', () => {
  class DetailedError extends Error {
    originalResponse: unknown;
    originalRequest: unknown;
    constructor(message: string, response: unknown) {
      super(message);
      this.originalResponse = response;
    }
  }
  class Upload {
    options: Record<string, unknown>;
    start = vi.fn();
    abort = vi.fn(() => Promise.resolve());
    findPreviousUploads = vi.fn(() => Promise.resolve(previous));
    resumeFromPreviousUpload = vi.fn();
    constructor(_file: unknown, options: Record<string, unknown>) {
      this.options = options;
      made.push(this as unknown as FakeUpload);
    }
  }
  return { Upload, DetailedError };
});

const { uploadResumable, UPLOADS_ENDPOINT } = await import('./resumable');
const tus = await import('tus-js-client');

const file = new File([new Uint8Array(16)], 'big.bin', { lastModified: 7 });
const flush = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  made.length = 0;
  previous = [];
});

describe('uploadResumable', () => {
  it('creates the upload with the target and the CSRF header, and sends it', async () => {
    uploadResumable('account:lab', '/d/big.bin', file, { overwrite: true });
    await flush();
    const u = first();
    expect(u.options.endpoint).toBe(UPLOADS_ENDPOINT);
    expect(u.options.metadata).toEqual({ space: 'account:lab', path: '/d/big.bin', filename: 'big.bin', overwrite: 'true' });
    expect(u.options.headers).toMatchObject({ 'X-Requested-With': 'crater' });
    expect(u.resumeFromPreviousUpload).not.toHaveBeenCalled();
    expect(u.start).toHaveBeenCalledTimes(1);
  });

  it('continues an upload remembered from before (a reload) instead of starting over', async () => {
    previous = [{ uploadUrl: '/api/v1/uploads/x', urlStorageKey: 'k' }];
    uploadResumable('user', '/big.bin', file);
    await flush();
    expect(first().resumeFromPreviousUpload).toHaveBeenCalledWith(previous[0]);
    expect(first().start).toHaveBeenCalledTimes(1);
  });

  it('pauses without terminating and resumes from the server, cancels by terminating', async () => {
    const h = uploadResumable('user', '/big.bin', file);
    await flush();
    h.pause();
    expect(first().abort).toHaveBeenLastCalledWith(false);
    h.resume();
    expect(first().start).toHaveBeenCalledTimes(2);
    h.cancel();
    expect(first().abort).toHaveBeenLastCalledWith(true);
    await expect(h.done).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports progress and turns a refusal into the problem it carries', async () => {
    const progress = vi.fn();
    const h = uploadResumable('user', '/big.bin', file, { onProgress: progress });
    await flush();
    const o = first().options as { onProgress: (a: number, b: number) => void; onError: (e: Error) => void };
    o.onProgress(5, 16);
    expect(progress).toHaveBeenCalledWith(5, 16);
    const body = JSON.stringify({ status: 413, title: 'Content too large', code: 'FileQuotaExceeded', detail: 'full' });
    const res = { getStatus: () => 413, getHeader: () => 'application/problem+json', getBody: () => body };
    o.onError(new tus.DetailedError('refused', res as never) as Error);
    await expect(h.done).rejects.toMatchObject({ status: 413, code: 'FileQuotaExceeded' });
  });
});
