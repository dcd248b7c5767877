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
  it('prefers args.resource, else reads the server sentence', () => {
    expect(reasonResource({ ...quota, args: { resource: 'cpu' } })).toBe('cpu');
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
    expect(formatReason(quota, en)).toBe('The account would use 10 of nvidia-a100-80gb; its max is 8 (6 in use, you ask for 4)');
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
        {
          code: 'MemberLimitReached',
          message: 'you would use 2500m of cpu in this account; your limit is 2',
          numbers: { requested: 500, used: 2000, limit: 2000 },
        },
        en,
      ),
    ).toBe('You would use 2.5 of CPU in this account; your limit is 2 (2 in use, you ask for 0.5)');
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
        {
          code: 'LargerThanFleet',
          message: 'the job asks for 200 cpu in all; the matching nodes offer 160',
          numbers: { requested: 200000, fleet: 160000 },
        },
        en,
      ),
    ).toBe('The job asks for 200 of CPU in all, but the matching nodes offer 160');
  });

  it('summarises missing capacity with the short resources', () => {
    expect(
      formatReason(
        {
          code: 'InsufficientCapacity',
          message: '0/4 nodes are available for pod pod-0 (0 of 1 pods of the gang placed): 3 Insufficient nvidia-a100-80gb.',
          numbers: {
            nodes: 4,
            placed: 0,
            pods: 1,
            'insufficient.nvidia-a100-80gb': 3,
            'insufficient.cpu': 1,
            largestFree: 2000,
            requested: 4000,
          },
        },
        en,
      ),
    ).toBe('Not enough free capacity: 0 of 1 pods fit on the 4 nodes right now (1 node short of CPU, 3 nodes short of nvidia-a100-80gb)');
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

describe('formatReason for waiting jobs', () => {
  const fragmentation: Reason = {
    code: 'Fragmentation',
    message: 'enough nvidia-a100-80gb is free in all (2) but the largest free block on one node is 1 and each pod needs 2',
    numbers: { largestFreeBlock: 1000, needs: 2000, totalFree: 2000 },
  };
  const now = Date.parse('2025-03-01T10:00:00Z');

  it('explains fragmented capacity', () => {
    expect(reasonResource(fragmentation)).toBe('nvidia-a100-80gb');
    expect(formatReason(fragmentation, en)).toBe(
      'Free capacity is fragmented: 1 GPU free on the best node, each pod needs 2 (2 free in all)',
    );
    expect(formatReason({ ...fragmentation, numbers: { largestFreeBlock: 3000, needs: 4000, totalFree: 8000 } }, en)).toBe(
      'Free capacity is fragmented: 3 GPUs free on the best node, each pod needs 4 (8 free in all)',
    );
    expect(formatReason(fragmentation, zh)).toBe('空闲资源碎片化：最合适的节点上只有 1 个 GPU 空闲，而每个 Pod 需要 2 个（总共空闲 2 个）');
  });

  it('explains capacity held for an older job', () => {
    const held: Reason = {
      code: 'CapacityHeldForOlderJob',
      message: 'the capacity it needs is held for a job that has waited 125 min, longer than the 30 min …',
      numbers: { waitedSeconds: 7500, toleranceSeconds: 1800 },
    };
    expect(formatReason(held, en)).toBe(
      'The capacity it needs is held for an older job that has waited 2 h 5 min (after 30 min of waiting, a job is no longer passed by smaller ones)',
    );
    expect(formatReason(held, zh)).toBe(
      '所需资源正为一个已等待 2 小时 5 分钟的较早作业保留（作业等待超过 30 分钟后，较小的作业不再能插到它前面）',
    );
  });

  it('explains why an admitted job has not started', () => {
    expect(
      formatReason({ code: 'CreatingObjects', message: 'admitted; its Volcano Job and pods are being created', numbers: {} }, en),
    ).toBe('Admitted; its Volcano Job and pods are being created');
    expect(formatReason({ code: 'VolcanoQueueFull', message: "the account's Volcano Queue has no room: …", numbers: {} }, zh)).toBe(
      '已准入，但账户的 Volcano 队列暂时没有空间',
    );
    expect(
      formatReason({ code: 'GangWaiting', message: '1 of 4 pods placed; all must start together', numbers: { placed: 1, total: 4 } }, en),
    ).toBe('1 of 4 pods placed; all must start together');
    expect(
      formatReason(
        {
          code: 'ImagePulling',
          message: 'pulling image python:3.12 since 2025-03-01T09:57:00Z',
          numbers: { sinceEpochSeconds: Date.parse('2025-03-01T09:57:00Z') / 1000 },
        },
        en,
        now,
      ),
    ).toBe('Pulling image python:3.12 (for 3 min)');
    expect(
      formatReason({ code: 'ImagePullFailed', message: 'image pytorch:nope cannot be pulled: manifest unknown', numbers: {} }, en),
    ).toBe('Image pytorch:nope cannot be pulled: manifest unknown');
    expect(formatReason({ code: 'ImagePullFailed', message: '', numbers: {} }, en)).toBe('An image of the job cannot be pulled');
    expect(formatReason({ code: 'VolumeMountFailed', message: 'Pod/j1-main-0: MountVolume.SetUp failed', numbers: {} }, en)).toBe(
      'A volume cannot be mounted: Pod/j1-main-0: MountVolume.SetUp failed',
    );
    expect(
      formatReason({ code: 'NodeNotReady', message: 'pod j1-main-0 is on node a100-80gb-1, which is not ready', numbers: {} }, en),
    ).toBe('Pod j1-main-0 is on node a100-80gb-1, which is not ready');
    expect(
      formatReason({ code: 'NodeNotReady', message: 'pod j1-main-0 is on node a100-80gb-1, which is not ready', numbers: {} }, zh),
    ).toBe('Pod j1-main-0 所在的节点 a100-80gb-1 未就绪');
  });

  it('explains why no start time can be given', () => {
    expect(
      formatReason({ code: 'WaitsForJobsWithoutTimeLimit', message: '3 running jobs have no time limit …', numbers: { jobs: 3 } }, en),
    ).toBe('3 running jobs without a time limit stand in its way, and it cannot start before some of them end');
    expect(
      formatReason({ code: 'WaitsForJobsWithoutTimeLimit', message: '1 running job has no time limit …', numbers: { jobs: 1 } }, en),
    ).toBe('A running job without a time limit stands in its way, and it cannot start before it ends');
    expect(formatReason({ code: 'TooManyJobsAhead', message: '', numbers: { jobsAhead: 3000, decisions: 20000 } }, en)).toContain('3000');
    expect(formatReason({ code: 'TooManyJobsAhead', message: '', numbers: { jobsAhead: 3000, decisions: 20000 } }, zh)).toContain('3000');
    expect(
      formatReason({ code: 'BeyondHorizon', message: 'it would start more than 60 days from now', numbers: { horizonDays: 60 } }, en),
    ).toBe('It would start more than 60 days from now');
    expect(formatReason({ code: 'BeyondHorizon', message: '', numbers: { horizonDays: 60 } }, zh)).toBe('预计要在 60 天之后才能开始');
    expect(formatReason({ code: 'CannotStartOnIdleCluster', message: 'even with every running job ended …', numbers: {} }, en)).toBe(
      'Even if every running job ended it would not start as it is: its quota, limits or the nodes do not allow it',
    );
  });
});

describe('reasons with arguments', () => {
  const models = (key: string) => (key === 'nvidia-a100-80gb' ? 'NVIDIA A100 80GB' : key);

  it('names the resource by its display name, from the args rather than the sentence', () => {
    const withArgs: Reason = { ...quota, message: 'anything', args: { resource: 'nvidia-a100-80gb' } };
    expect(formatReason(withArgs, en, Date.now(), models)).toBe(
      'The account would use 10 of NVIDIA A100 80GB; its max is 8 (6 in use, you ask for 4)',
    );
    expect(formatReason(withArgs, zh, Date.now(), models)).toContain('NVIDIA A100 80GB');
  });

  it('gives the exact reason a job can never start for', () => {
    const never: Reason = {
      code: 'CannotStartOnIdleCluster',
      message: 'even with every running job ended it would not start: …',
      numbers: { requested: 16000, used: 0, max: 8000, granted: 0, effectiveMax: 8000 },
      args: { cause: 'AccountQuotaExceeded', resource: 'nvidia-a100-80gb' },
    };
    expect(formatReason(never, en, Date.now(), models)).toBe(
      'Even if every running job ended it would not start as it is: The account would use 16 of NVIDIA A100 80GB; its max is 8 (0 in use, you ask for 16)',
    );
    // Without a cause (nothing but room in the way) the general sentence stays.
    expect(formatReason({ ...never, args: {} }, en)).toBe(en('jobs.reason.CannotStartOnIdleCluster'));
  });
});
