import { describe, expect, it } from 'vitest';
import { progressOf, toStart, uploadReducer, type UploadAction, type UploadItem } from './uploadQueue';

function file(name: string, bytes: number): File {
  return new File([new Uint8Array(bytes)], name);
}

function run(actions: UploadAction[], start: UploadItem[] = []): UploadItem[] {
  return actions.reduce(uploadReducer, start);
}

const added: UploadAction = {
  type: 'add',
  items: [
    { id: 'a', space: 'user', path: '/a.bin', file: file('a.bin', 100) },
    { id: 'b', space: 'user', path: '/b.bin', file: file('b.bin', 0) },
  ],
};

const one = (items: UploadItem[], id = 'a') => items.find((i) => i.id === id)!;

describe('the upload queue', () => {
  it('queues new files with their size and nothing sent', () => {
    const a = one(run([added]));
    expect(a).toMatchObject({ status: 'queued', loaded: 0, total: 100, overwrite: false, error: null });
  });

  it('goes queued → uploading with progress → done', () => {
    const items = run([added, { type: 'start', id: 'a' }, { type: 'progress', id: 'a', loaded: 40 }]);
    expect(one(items)).toMatchObject({ status: 'uploading', loaded: 40 });
    expect(progressOf(one(items))).toBeCloseTo(0.4);
    const done = run([{ type: 'done', id: 'a' }], items);
    expect(one(done)).toMatchObject({ status: 'done', loaded: 100 });
  });

  it('never moves progress backwards or past the size', () => {
    const items = run([
      added,
      { type: 'start', id: 'a' },
      { type: 'progress', id: 'a', loaded: 60 },
      { type: 'progress', id: 'a', loaded: 20 },
    ]);
    expect(one(items).loaded).toBe(60);
    expect(one(run([{ type: 'progress', id: 'a', loaded: 500 }], items)).loaded).toBe(100);
  });

  it('ignores what does not fit the state: progress or done before start, start twice', () => {
    const items = run([added, { type: 'progress', id: 'a', loaded: 50 }, { type: 'done', id: 'a' }]);
    expect(one(items)).toMatchObject({ status: 'queued', loaded: 0 });
    const started = run(
      [
        { type: 'start', id: 'a' },
        { type: 'progress', id: 'a', loaded: 10 },
        { type: 'start', id: 'a' },
      ],
      items,
    );
    expect(one(started)).toMatchObject({ status: 'uploading', loaded: 10 });
  });

  it('fails with the reason, and a retry queues it again with nothing sent', () => {
    const error = { message: 'exists', reasons: [], conflict: true };
    const failed = run([added, { type: 'start', id: 'a' }, { type: 'progress', id: 'a', loaded: 30 }, { type: 'fail', id: 'a', error }]);
    expect(one(failed)).toMatchObject({ status: 'failed', error });
    const retried = run([{ type: 'retry', id: 'a', overwrite: true }], failed);
    expect(one(retried)).toMatchObject({ status: 'queued', loaded: 0, error: null, overwrite: true });
  });

  it('cancels a queued or running upload, not a finished one, and a cancelled one can be retried', () => {
    const items = run([
      added,
      { type: 'start', id: 'a' },
      { type: 'cancel', id: 'a' },
      { type: 'start', id: 'b' },
      { type: 'done', id: 'b' },
      { type: 'cancel', id: 'b' },
    ]);
    expect(one(items).status).toBe('cancelled');
    expect(one(items, 'b').status).toBe('done');
    expect(one(run([{ type: 'retry', id: 'a' }], items)).status).toBe('queued');
    expect(one(run([{ type: 'retry', id: 'b' }], items), 'b').status).toBe('done');
  });

  it('clears what has finished and keeps what is waiting or running', () => {
    const items = run([
      { type: 'add', items: ['a', 'b', 'c', 'd'].map((id) => ({ id, space: 'user', path: `/${id}`, file: file(id, 1) })) },
      { type: 'start', id: 'a' },
      { type: 'start', id: 'b' },
      { type: 'done', id: 'b' },
      { type: 'cancel', id: 'c' },
      { type: 'clear' },
    ]);
    expect(items.map((i) => [i.id, i.status])).toEqual([
      ['a', 'uploading'],
      ['d', 'queued'],
    ]);
  });

  it('starts the oldest queued uploads while fewer than the limit run', () => {
    const items = run([
      { type: 'add', items: ['a', 'b', 'c', 'd'].map((id) => ({ id, space: 'user', path: `/${id}`, file: file(id, 1) })) },
      { type: 'start', id: 'a' },
    ]);
    expect(toStart(items, 3).map((i) => i.id)).toEqual(['b', 'c']);
    expect(toStart(items, 1)).toEqual([]);
  });

  it('counts an empty file complete only once it is done', () => {
    const items = run([added, { type: 'start', id: 'b' }]);
    expect(progressOf(one(items, 'b'))).toBe(0);
    expect(progressOf(one(run([{ type: 'done', id: 'b' }], items), 'b'))).toBe(1);
  });
});

describe('pausing a resumable upload', () => {
  const big: UploadAction = {
    type: 'add',
    items: [{ id: 'big', space: 'user', path: '/big.bin', file: { name: 'big.bin', size: 20 * 1024 * 1024 } as File }],
  };

  it('marks files above the threshold resumable and small ones not', () => {
    expect(one(run([big]), 'big').resumable).toBe(true);
    expect(one(run([added])).resumable).toBe(false);
  });

  it('goes uploading → paused → uploading, keeping what was sent', () => {
    const paused = run([big, { type: 'start', id: 'big' }, { type: 'progress', id: 'big', loaded: 1000 }, { type: 'pause', id: 'big' }]);
    expect(one(paused, 'big')).toMatchObject({ status: 'paused', loaded: 1000 });
    expect(toStart(paused)).toEqual([]);
    const resumed = run(
      [
        { type: 'resume', id: 'big' },
        { type: 'progress', id: 'big', loaded: 2000 },
      ],
      paused,
    );
    expect(one(resumed, 'big')).toMatchObject({ status: 'uploading', loaded: 2000 });
  });

  it('does not pause a plain upload, nor resume what is not paused', () => {
    const plain = run([added, { type: 'start', id: 'a' }, { type: 'pause', id: 'a' }]);
    expect(one(plain).status).toBe('uploading');
    const queued = run([big, { type: 'resume', id: 'big' }]);
    expect(one(queued, 'big').status).toBe('queued');
  });

  it('can be cancelled while paused, and keeps a paused upload when finished ones are cleared', () => {
    const paused = run([big, { type: 'start', id: 'big' }, { type: 'pause', id: 'big' }]);
    expect(run([{ type: 'clear' }], paused)).toHaveLength(1);
    expect(one(run([{ type: 'cancel', id: 'big' }], paused), 'big').status).toBe('cancelled');
  });
});
