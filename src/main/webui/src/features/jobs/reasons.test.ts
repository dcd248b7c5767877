import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import type { Reason } from '../../api/types';
import { formatReason, reasonResource } from './reasons';

const en = i18n.getFixedT('en');
const zh = i18n.getFixedT('zh-CN');
const GiB = 1024 ** 3;

const quota: Reason = {
  code: 'AccountQuotaExceeded',
  message: 'the account would use 10 of nvidia-a100-80gb but its max is 8',
  numbers: { requested: 4000, used: 6000, max: 8000, granted: 0, effectiveMax: 8000 },
};

describe('reasonResource', () => {
  it('prefers the resource field, else reads the server sentence', () => {
    expect(reasonResource({ ...quota, resource: 'cpu' })).toBe('cpu');
    expect(reasonResource(quota)).toBe('nvidia-a100-80gb');
    expect(reasonResource({ message: 'you would use 3 of cpu in this account; your limit is 2' })).toBe('cpu');
    expect(reasonResource({ message: 'a pod asks for 16 nvidia-h100-80gb but the largest matching node offers 8' })).toBe(
      'nvidia-h100-80gb',
    );
    expect(reasonResource({ message: 'the account has expired' })).toBeNull();
  });
});

describe('formatReason', () => {
  it('rebuilds the quota sentence from the numbers', () => {
    expect(formatReason(quota, en)).toBe(
      'The account would use 10 of nvidia-a100-80gb; its max is 8 (6 in use, you ask for 4)',
    );
    expect(formatReason({ ...quota, numbers: { ...quota.numbers, granted: 2000, effectiveMax: 10000 } }, en)).toBe(
      'The account would use 10 of nvidia-a100-80gb; its max is 10 including 2 granted (6 in use, you ask for 4)',
    );
  });

  it('shows cpu in cores and memory in GiB', () => {
    expect(
      formatReason(
        {
          code: 'AccountQuotaExceeded',
          message: 'the account would use 40Gi of memory but its max is 32Gi',
          numbers: { requested: 8 * GiB * 1000, used: 32 * GiB * 1000, max: 32 * GiB * 1000, granted: 0, effectiveMax: 32 * GiB * 1000 },
        },
        en,
      ),
    ).toBe('The account would use 40 GiB of memory; its max is 32 GiB (32 GiB in use, you ask for 8 GiB)');
    expect(
      formatReason(
        { code: 'MemberLimitReached', message: 'you would use 2500m of cpu in this account; your limit is 2', numbers: { requested: 500, used: 2000, limit: 2000 } },
        en,
      ),
    ).toBe('You would use 2.5 of cpu in this account; your limit is 2 (2 in use, you ask for 0.5)');
  });

  it('formats the member job and session limits', () => {
    expect(formatReason({ code: 'MemberLimitReached', message: '', numbers: { jobs: 3, limit: 3 } }, en)).toBe(
      'You have 3 running or admitted jobs; your limit is 3',
    );
    expect(formatReason({ code: 'MemberLimitReached', message: '', numbers: { sessions: 1, limit: 1 } }, en)).toBe(
      'You have 1 interactive sessions; your limit is 1',
    );
  });

  it('formats the rejections', () => {
    expect(
      formatReason(
        {
          code: 'PodLargerThanAnyNode',
          message: 'a pod asks for 16 nvidia-a100-80gb but the largest matching node offers 8',
          numbers: { requested: 16000, largestNode: 8000 },
        },
        en,
      ),
    ).toBe('A pod asks for 16 of nvidia-a100-80gb, but the largest matching node offers 8');
    expect(
      formatReason(
        { code: 'LargerThanFleet', message: 'the job asks for 200 cpu in all; the matching nodes offer 160', numbers: { requested: 200000, fleet: 160000 } },
        en,
      ),
    ).toBe('The job asks for 200 of cpu in all, but the matching nodes offer 160');
  });

  it('summarises missing capacity with the short resources', () => {
    expect(
      formatReason(
        {
          code: 'InsufficientCapacity',
          message: '0/4 nodes are available for pod pod-0 (0 of 1 pods of the gang placed): 3 Insufficient nvidia-a100-80gb.',
          numbers: { nodes: 4, placed: 0, pods: 1, 'insufficient.nvidia-a100-80gb': 3, 'insufficient.cpu': 1, largestFree: 2000, requested: 4000 },
        },
        en,
      ),
    ).toBe(
      'Not enough free capacity: 0 of 1 pods fit on the 4 nodes right now (1 node short of cpu, 3 nodes short of nvidia-a100-80gb)',
    );
  });

  it('falls back to the server message for other codes or missing figures', () => {
    expect(formatReason({ code: 'AccountExpired', message: 'the account expired on 2025-01-01', numbers: {} }, en)).toBe(
      'The account expired on 2025-01-01',
    );
    expect(formatReason({ ...quota, numbers: { requested: 4000 } }, en)).toBe(
      'The account would use 10 of nvidia-a100-80gb but its max is 8',
    );
    expect(formatReason({ code: 'Mystery', message: '', numbers: {} }, en)).toBe('Waiting (Mystery)');
  });

  it('speaks Chinese too', () => {
    expect(formatReason(quota, zh)).toBe('账户的 nvidia-a100-80gb 用量将达到 10；其上限为 8（已用 6，本次请求 4）');
  });
});
