import { describe, expect, it } from 'vitest';
import { isResumable, RESUMABLE_ABOVE, shouldRetry, tusMetadata, uploadFingerprint } from './resumable';

describe('resumable uploads', () => {
  it('go resumably only above the threshold', () => {
    expect(isResumable(RESUMABLE_ABOVE)).toBe(false);
    expect(isResumable(RESUMABLE_ABOVE + 1)).toBe(true);
    expect(isResumable(0)).toBe(false);
  });

  it.each([
    { name: 'no answer', status: 0, method: 'PATCH', retry: true },
    { name: 'a server error', status: 503, method: 'POST', retry: true },
    { name: 'a lock held by another request', status: 423, method: 'PATCH', retry: true },
    { name: 'an offset that moved', status: 409, method: 'patch', retry: true },
    { name: 'an existing file at creation', status: 409, method: 'POST', retry: false },
    { name: 'the quota', status: 413, method: 'POST', retry: false },
    { name: 'a bad checksum', status: 460, method: 'PATCH', retry: false },
    { name: 'an upload that is gone', status: 404, method: 'HEAD', retry: false },
    { name: 'a signed-out session', status: 401, method: 'PATCH', retry: false },
  ])('retries $name: $retry', ({ status, method, retry }) => {
    expect(shouldRetry(status, method)).toBe(retry);
  });

  it('tell the server the space, the path and whether to replace', () => {
    expect(tusMetadata('account:lab', '/data/a.bin', 'a.bin', true)).toEqual({
      space: 'account:lab',
      path: '/data/a.bin',
      filename: 'a.bin',
      overwrite: 'true',
    });
    expect(tusMetadata('user', '/a.bin', 'a.bin', false).overwrite).toBe('false');
  });

  it('remember the same file to the same place under one key, and nothing else under it', () => {
    const file = { name: 'a.bin', size: 10, lastModified: 5 };
    const key = uploadFingerprint('user', '/a.bin', file);
    expect(uploadFingerprint('user', '/a.bin', { ...file })).toBe(key);
    expect(uploadFingerprint('user', '/b/a.bin', file)).not.toBe(key);
    expect(uploadFingerprint('account:lab', '/a.bin', file)).not.toBe(key);
    expect(uploadFingerprint('user', '/a.bin', { ...file, size: 11 })).not.toBe(key);
    expect(uploadFingerprint('user', '/a.bin', { ...file, lastModified: 6 })).not.toBe(key);
  });
});
