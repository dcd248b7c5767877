import { describe, expect, it } from 'vitest';
import type { Asset } from '../../api/types';
import {
  assetFormOf,
  checkAssetForm,
  createBody,
  emptyAssetForm,
  mountLineFor,
  mountLines,
  parseMountLines,
  parseTags,
  updateBody,
} from './assetForm';

const ASSET: Asset = {
  id: 'ds_abcdefghij',
  kind: 'dataset',
  name: 'imagenet',
  owner: 'ada',
  description: 'sample',
  space: 'user:ada',
  path: '/imagenet',
  targetType: 'folder',
  sizeBytes: 12,
  files: 3,
  measuredAt: '2026-12-01T10:00:00Z',
  licence: 'CC-BY-4.0',
  source: '',
  revision: '',
  visibility: 'account',
  account: 'lab',
  tags: ['images', 'vision'],
  createdAt: '2026-12-01T10:00:00Z',
  updatedAt: '2026-12-01T10:00:00Z',
  mayEdit: true,
};

describe('the entry form', () => {
  it('reads tags separated by commas or spaces, lowercased, once each', () => {
    expect(parseTags(' Vision, images  vision,')).toEqual(['vision', 'images']);
    expect(parseTags('')).toEqual([]);
  });

  it('refuses a bad name, a relative path, a missing account and bad tags before sending', () => {
    const v = { ...emptyAssetForm('dataset'), name: 'Bad Name', path: 'x', visibility: 'account' as const, tags: 'ok, no_way' };
    expect(checkAssetForm(v)).toEqual({ name: 'name', path: 'path', account: 'account', tags: 'tags' });
    expect(checkAssetForm({ ...emptyAssetForm('model'), name: 'llama-3', path: '/m' })).toEqual({});
  });

  it('sends the account only when shared with one', () => {
    const v = { ...emptyAssetForm('dataset'), name: 'x', path: '/x', account: 'lab' };
    expect(createBody(v).account).toBeUndefined();
    expect(createBody({ ...v, visibility: 'account' }).account).toBe('lab');
  });

  it("shows the owner's own space as user and sends only what changed, space and path together", () => {
    const before = assetFormOf(ASSET, 'ada');
    expect(before.space).toBe('user');
    expect(before.tags).toBe('images, vision');
    expect(assetFormOf(ASSET, 'bob').space).toBe('user:ada');
    expect(updateBody(before, before)).toEqual({});
    expect(updateBody(before, { ...before, path: '/imagenet/v2' })).toEqual({ space: 'user', path: '/imagenet/v2' });
    expect(updateBody(before, { ...before, tags: 'vision images' })).toEqual({});
    expect(updateBody(before, { ...before, visibility: 'private', account: '' })).toEqual({ visibility: 'private' });
  });
});

describe('mount lines', () => {
  it('reads dataset and model lines and names the bad ones', () => {
    const { mounts, errors } = parseMountLines('dataset imagenet /data/imagenet\n\nmodel ada/llama /models/llama\nfoo x /y\ndataset x rel');
    expect(mounts).toEqual([
      { dataset: 'imagenet', path: '/data/imagenet' },
      { model: 'ada/llama', path: '/models/llama' },
    ]);
    expect(errors).toEqual([{ line: 4 }, { line: 5 }]);
  });

  it('writes a spec back as the lines it came from', () => {
    const text = mountLines([
      { dataset: 'ds_abcdefghij', path: '/data' },
      { model: 'llama', path: '/m' },
    ]);
    expect(text).toBe('dataset ds_abcdefghij /data\nmodel llama /m');
    expect(parseMountLines(text).mounts).toHaveLength(2);
  });

  it("names someone else's entry by owner/name", () => {
    expect(mountLineFor(ASSET, true)).toBe('dataset imagenet /data/imagenet');
    expect(mountLineFor({ ...ASSET, kind: 'model', name: 'llama' }, false)).toBe('model ada/llama /models/llama');
  });
});
