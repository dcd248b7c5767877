import { describe, expect, it } from 'vitest';
import type { Image } from '../../api/types';
import {
  checkImageForm,
  checkSummary,
  checkTone,
  createImageBody,
  emptyImageForm,
  imageFormOf,
  parseList,
  updateImageBody,
} from './imageForm';

const IMAGE: Image = {
  id: 'im_abcdefgh',
  reference: 'ghcr.io/org/trainer',
  registry: 'ghcr.io',
  repository: 'org/trainer',
  owner: 'ada',
  description: 'trainer',
  tags: ['2.3', 'gone'],
  cudaVersion: '12.1',
  architectures: ['amd64'],
  vendors: ['nvidia'],
  kinds: ['pytorch'],
  visibility: 'private',
  account: null,
  sharedWith: { users: ['bob'], accounts: [] },
  checks: [{ tag: '2.3', result: 'ok', detail: null, digest: 'sha256:aa', mediaType: null, checkedAt: '2026-12-01T10:00:00Z' }],
  createdAt: '2026-12-01T10:00:00Z',
  updatedAt: '2026-12-01T10:00:00Z',
  mayEdit: true,
};

describe('imageForm', () => {
  it.each([
    ['ghcr.io/org/trainer', undefined],
    ['registry.example.org:5000/team/env', undefined],
    ['pytorch/pytorch', undefined],
    ['ubuntu:22.04', 'reference'],
    ['ghcr.io/org/trainer:2.3', 'reference'],
    ['ghcr.io/org/trainer@sha256:aa', 'reference'],
    ['', 'reference'],
  ])('checks the reference %s', (reference, error) => {
    expect(checkImageForm({ ...emptyImageForm(), reference, tags: 'v1' }).reference).toBe(error);
  });

  it('wants 1 to 50 tags as the specification spells them, a CUDA version, and the account of an account image', () => {
    const base = { ...emptyImageForm(), reference: 'ghcr.io/org/x' };
    expect(checkImageForm({ ...base, tags: '' }).tags).toBe('tags');
    expect(checkImageForm({ ...base, tags: '.hidden' }).tags).toBe('tags');
    expect(checkImageForm({ ...base, tags: Array.from({ length: 51 }, (_, i) => `t${i}`).join(',') }).tags).toBe('tags');
    expect(checkImageForm({ ...base, tags: 'v1', cudaVersion: '12' }).cudaVersion).toBe('cudaVersion');
    expect(checkImageForm({ ...base, tags: 'v1', visibility: 'account' }).account).toBe('account');
    expect(checkImageForm({ ...base, tags: 'v1, 2.3-cuda12.1', cudaVersion: '11.8.0' })).toEqual({});
  });

  it('sends lists in the order typed, vendors and accounts in lowercase', () => {
    expect(parseList('b, a b  ,c')).toEqual(['b', 'a', 'c']);
    const body = createImageBody({
      ...emptyImageForm(),
      reference: ' ghcr.io/org/x ',
      tags: 'v2, v1',
      vendors: 'NVIDIA',
      visibility: 'account',
      account: 'lab',
      users: 'bob',
      accounts: 'NLP',
    });
    expect(body).toEqual({
      reference: 'ghcr.io/org/x',
      tags: ['v2', 'v1'],
      description: '',
      cudaVersion: '',
      architectures: ['amd64'],
      vendors: ['nvidia'],
      kinds: [],
      visibility: 'account',
      account: 'lab',
      sharedWith: { users: ['bob'], accounts: ['nlp'] },
    });
  });

  it('sends only what changed, a share list whole', () => {
    const before = imageFormOf(IMAGE);
    expect(updateImageBody(before, before)).toEqual({});
    expect(updateImageBody(before, { ...before, accounts: 'lab', tags: '2.3' })).toEqual({
      tags: ['2.3'],
      sharedWith: { users: ['bob'], accounts: ['lab'] },
    });
  });

  it('sums the checks per tag and picks a tone per result', () => {
    expect(checkSummary(IMAGE)).toEqual({ ok: 1, total: 2, state: 'failed' });
    expect(checkSummary({ ...IMAGE, tags: ['2.3'] })).toEqual({ ok: 1, total: 1, state: 'ok' });
    expect(checkSummary({ ...IMAGE, checks: [] }).state).toBe('unchecked');
    expect([checkTone('ok'), checkTone('not-found'), checkTone('unreachable'), checkTone(undefined)]).toEqual([
      'success',
      'danger',
      'warning',
      'neutral',
    ]);
  });
});
