import { describe, expect, it } from 'vitest';
import type { Image } from '../../api/types';
import { PICK_LIMIT, imageChoices, pickFilter } from './imagePick';

const IMAGE = {
  id: 'im_1',
  reference: 'ghcr.io/lab/trainer',
  tags: ['a', 'b', 'c'],
  checks: [
    { tag: 'b', result: 'unreachable', detail: 'no answer', digest: null, mediaType: null, checkedAt: '2026-12-01T11:00:00Z' },
    { tag: 'a', result: 'ok', detail: null, digest: 'sha256:1', mediaType: null, checkedAt: '2026-12-01T11:00:00Z' },
  ],
} as unknown as Image;

describe('pickFilter', () => {
  it.each([
    ['pytorch', 'a100', '', { kind: 'pytorch', accelerator: 'a100', limit: PICK_LIMIT }],
    ['jupyter', '', '', { kind: 'jupyter', limit: PICK_LIMIT }],
    ['custom', '', '  cuda ', { kind: 'custom', q: 'cuda', limit: PICK_LIMIT }],
  ] as const)('%s on "%s" searching "%s"', (kind, model, q, want) => {
    expect(pickFilter(kind, model, q)).toEqual(want);
  });
});

describe('imageChoices', () => {
  it("offers every tag in order as reference:tag with that tag's own check", () => {
    expect(imageChoices([IMAGE]).map((c) => [c.text, c.state, c.check?.result])).toEqual([
      ['ghcr.io/lab/trainer:a', 'ok', 'ok'],
      ['ghcr.io/lab/trainer:b', 'failed', 'unreachable'],
      ['ghcr.io/lab/trainer:c', 'unchecked', undefined],
    ]);
  });
});
