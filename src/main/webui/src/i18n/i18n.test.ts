import { describe, expect, it } from 'vitest';
import i18n from '.';
import type { JobTransition, Notification, Reason } from '../api/types';
import { historyText } from '../features/jobs/historyText';
import { formatReason } from '../features/jobs/reasons';
import { notificationText } from '../features/me/notifications';
import en from './en.json';
import codes from './reasonCodes.json';
import zhCN from './zh-CN.json';

const LANGUAGES = ['en', 'zh-CN'] as const;
const SERVER = 'SERVER SENTENCE';
const NOW = Date.parse('2026-12-01T10:00:00Z');
const GiB = 1024 ** 3;
const names: Record<string, string> = { 'nvidia-a100-80gb': 'NVIDIA A100 80GB' };
const nameOf = (key: string) => names[key] ?? key;

/** Every key of a nested translation file, with plural suffixes taken off. */
function keys(tree: object, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(tree)) {
    const path = prefix + k;
    if (v !== null && typeof v === 'object') keys(v as object, `${path}.`).forEach((x) => out.add(x));
    else out.add(path.replace(/_(zero|one|two|few|many|other)$/, '').replace(/_ordinal$/, ''));
  }
  return out;
}

describe('the translation files', () => {
  it('have the same keys in en and zh-CN, plural forms aside', () => {
    const e = keys(en);
    const z = keys(zhCN);
    expect([...e].filter((k) => !z.has(k))).toEqual([]);
    expect([...z].filter((k) => !e.has(k))).toEqual([]);
    expect(e.size).toBeGreaterThan(500);
  });
});

/** A reason of each code the server emits, and what each rendering must quote (numbers in display units). */
const REASONS: Record<string, { numbers?: Record<string, number>; args?: Record<string, string>; quotes: string[] }> = {
  AccountQuotaExceeded: {
    numbers: { requested: 4000, used: 6000, max: 8000, granted: 0, effectiveMax: 8000 },
    args: { resource: 'nvidia-a100-80gb' },
    quotes: ['NVIDIA A100 80GB', '10', '8', '6', '4'],
  },
  MemberLimitReached: {
    numbers: { requested: 2 * GiB * 1000, used: 30 * GiB * 1000, limit: 31 * GiB * 1000 },
    args: { resource: 'memory' },
    quotes: ['32 GiB', '31 GiB', '30 GiB'],
  },
  InsufficientCapacity: {
    numbers: { placed: 1, pods: 3, nodes: 5, 'insufficient.nvidia-a100-80gb': 4 },
    args: { resource: 'nvidia-a100-80gb' },
    quotes: ['1', '3', '5', 'NVIDIA A100 80GB'],
  },
  Unschedulable: { numbers: { placed: 0, pods: 2, nodes: 7 }, args: { resource: 'cpu' }, quotes: ['2', '7'] },
  PodLargerThanAnyNode: {
    numbers: { requested: 16000, largestNode: 8000 },
    args: { resource: 'nvidia-a100-80gb' },
    quotes: ['16', '8', 'NVIDIA A100 80GB'],
  },
  LargerThanFleet: { numbers: { requested: 96000, fleet: 64000 }, args: { resource: 'cpu' }, quotes: ['96', '64', 'CPU'] },
  CapacityHeldForOlderJob: { numbers: { waitedSeconds: 7200, toleranceSeconds: 3600 }, quotes: ['2', '1'] },
  Fragmentation: {
    numbers: { largestFreeBlock: 2000, needs: 4000, totalFree: 6000 },
    args: { resource: 'nvidia-a100-80gb' },
    quotes: ['2', '4', '6'],
  },
  AccountExpired: { args: { account: 'vision-lab', expiredAt: '2026-11-30T00:00:00Z' }, quotes: ['vision-lab', '2026-11-30'] },
  ModelNotApproved: { args: { model: 'nvidia-a100-80gb' }, quotes: ['NVIDIA A100 80GB'] },
  ModelRetired: { args: { model: 'nvidia-a100-80gb', retiredAt: '2026-12-01T08:00:00Z' }, quotes: ['NVIDIA A100 80GB', '2026-12-01'] },
  InvalidSpec: { quotes: [] },
  FeatureDisabled: { args: { feature: 'pytorch', account: 'vision-lab' }, quotes: ['PyTorch', 'vision-lab'] },
  WaitsForBudget: {
    numbers: { remainingMicros: 1000000, projectedMicros: 10240000, periodEndsEpochSeconds: 1798761600 },
    args: { currency: 'points', periodEnds: '2027-01-01T00:00:00Z' },
    quotes: ['2027-01-01 00:00'],
  },
  BudgetExhausted: {
    numbers: { remainingMicros: -250000, projectedMicros: 10240000, periodEndsEpochSeconds: 1798761600 },
    args: { currency: 'points', periodEnds: '2027-01-01T00:00:00Z' },
    quotes: ['10.24', '-0.25', 'points', '2027-01-01 00:00'],
  },
  AllotmentExhausted: {
    numbers: { remainingMicros: 3000000, projectedMicros: 5120000, allotmentMicros: 50000000, periodEndsEpochSeconds: 1798761600 },
    args: { currency: 'points', periodEnds: '2027-01-01T00:00:00Z' },
    quotes: ['5.12', '3', '50', 'points', '2027-01-01 00:00'],
  },
  WaitsForAllotment: {
    numbers: { remainingMicros: 3000000, projectedMicros: 5120000, allotmentMicros: 50000000, periodEndsEpochSeconds: 1798761600 },
    args: { currency: 'points', periodEnds: '2027-01-01T00:00:00Z' },
    quotes: ['2027-01-01 00:00'],
  },
  CreatingObjects: { quotes: [] },
  VolcanoQueueFull: { quotes: [] },
  GangWaiting: { numbers: { placed: 2, total: 4 }, quotes: ['2', '4'] },
  ImagePulling: { numbers: { sinceEpochSeconds: NOW / 1000 - 300 }, args: { image: 'python:3.12' }, quotes: ['python:3.12', '5'] },
  ImagePullFailed: { args: { image: 'nope:1', detail: 'not found' }, quotes: ['nope:1', 'not found'] },
  VolumeMountFailed: { args: { object: 'Pod/c-ab12cd-main-0', detail: 'no such volume' }, quotes: ['no such volume'] },
  NodeNotReady: { args: { pod: 'c-ab12cd-main-0', node: 'gpu-7' }, quotes: ['c-ab12cd-main-0', 'gpu-7'] },
  NodeCordoned: {
    numbers: { cordonedNodes: 2 },
    args: { node: 'rtx4090-1', reason: 'fan replacement', by: 'ada' },
    quotes: ['rtx4090-1', 'fan replacement', 'ada'],
  },
  NodeTainted: {
    numbers: { nodes: 2, free: 8000 },
    args: { taint: 'dedicated=vision:NoSchedule', resource: 'nvidia.com/gpu', nodes: 'a100-1, a100-2' },
    quotes: ['2', '8', 'dedicated=vision:NoSchedule'],
  },
  NodeExclusive: { numbers: { nodes: 1, free: 4000 }, args: { resource: 'nvidia.com/gpu' }, quotes: ['1', '4'] },
  TargetNodesBusy: {
    numbers: { targetNodes: 2, free: 2000, missing: 0 },
    args: { nodes: 'a100-1, a100-2', resource: 'nvidia.com/gpu' },
    quotes: ['a100-1, a100-2', '2'],
  },
  NodesAvoided: {
    numbers: { nodes: 1, free: 8000 },
    args: { nodes: 'a100-3', resource: 'nvidia.com/gpu' },
    quotes: ['a100-3', '8'],
  },
  WaitsForJobsWithoutTimeLimit: { numbers: { jobs: 3 }, quotes: ['3'] },
  CannotStartOnIdleCluster: {
    numbers: { requested: 16000, used: 0, max: 8000, granted: 0, effectiveMax: 8000 },
    args: { cause: 'AccountQuotaExceeded', resource: 'nvidia-a100-80gb' },
    quotes: ['NVIDIA A100 80GB', '16', '8'],
  },
  TooManyJobsAhead: { numbers: { jobsAhead: 25000, decisions: 20000 }, quotes: ['25000', '20000'] },
  BeyondHorizon: { numbers: { horizonDays: 60 }, quotes: ['60'] },
  FileQuotaExceeded: {
    numbers: { usedBytes: 9 * GiB, addBytes: 2 * GiB, limitBytes: 10 * GiB, usedFiles: 3, addFiles: 1, limitFiles: 100 },
    quotes: ['9', '2', '10'],
  },
  GpuXidFatal: { numbers: { gpu: 3, xid: 79 }, args: { job: 'ab12cd' }, quotes: ['3', '79'] },
  GpuXidHardware: { numbers: { gpu: 5, xid: 94, count: 1, threshold: 2, windowSeconds: 3600 }, quotes: ['5', '94', '2', '1'] },
  GpuXidRepeated: { numbers: { gpu: 5, xid: 92, count: 2, threshold: 2, windowSeconds: 3600 }, quotes: ['5', '92', '2'] },
  GpuXidApplication: { numbers: { gpu: 0, xid: 13 }, quotes: ['0', '13'] },
  GpuEccUncorrectable: { numbers: { gpu: 2, errors: 4 }, quotes: ['2', '4'] },
  DownloadLimitReached: {
    numbers: { active: 3, maxConcurrent: 3, started: 7, maxPerWindow: 20, windowSeconds: 86400 },
    args: { limit: 'concurrent' },
    quotes: ['3', '7', '20'],
  },
  JobsFailingOnNode: {
    numbers: { jobs: 6, suspectAt: 3, quarantineAt: 6, windowSeconds: 3600 },
    args: { job: 'ab12cd' },
    quotes: ['6', '3'],
  },
};

describe('every reason code the server emits', () => {
  it('has a sample here', () => {
    expect(Object.keys(REASONS).sort()).toEqual([...codes.reasons].sort());
  });

  for (const code of codes.reasons) {
    for (const lang of LANGUAGES) {
      it(`${code} renders in ${lang} from its numbers and arguments`, () => {
        const sample = REASONS[code] ?? { quotes: [] };
        const reason: Reason = { code, message: SERVER, numbers: sample.numbers ?? {}, args: sample.args ?? {} };
        const text = formatReason(reason, i18n.getFixedT(lang), NOW, nameOf);
        expect(text).not.toContain(SERVER);
        expect(text).not.toMatch(/\{\{|jobs\.reason\./);
        for (const q of sample.quotes) expect(text).toContain(q);
      });
    }
  }

  it('says the same in both languages, each in its own words', () => {
    const reason: Reason = {
      code: 'AccountQuotaExceeded',
      message: SERVER,
      ...REASONS.AccountQuotaExceeded,
      numbers: REASONS.AccountQuotaExceeded!.numbers!,
    };
    const e = formatReason(reason, i18n.getFixedT('en'), NOW, nameOf);
    const z = formatReason(reason, i18n.getFixedT('zh-CN'), NOW, nameOf);
    expect(e).not.toBe(z);
    expect(z).toContain('账户');
  });

  it('falls back to the server sentence for a code the console does not know', () => {
    const text = formatReason({ code: 'SomethingNew', message: 'something new happened', numbers: {} }, i18n.getFixedT('zh-CN'));
    expect(text).toBe('Something new happened');
  });
});

const HISTORY: Record<string, { args?: Record<string, string | number>; quotes: string[] }> = {
  Submitted: { quotes: [] },
  Admitted: { args: { borrowing: 1 }, quotes: [] },
  StopRequested: { args: { by: 'ada' }, quotes: ['ada'] },
  Stopped: { args: { queued: 1 }, quotes: [] },
  Reclaimed: { quotes: [] },
  IdleReclaimed: { args: { model: 'nvidia-a100-80gb', accelerators: 2, peakPercent: 0.4 }, quotes: ['2', 'NVIDIA A100 80GB', '0.4'] },
  VolcanoJobDeleted: { quotes: [] },
  VolcanoJobVanished: { quotes: [] },
  PodGroupPending: { args: { running: 0, pending: 0, succeeded: 0, failed: 0, total: 0 }, quotes: [] },
  PodPending: { args: { running: 0, pending: 2, succeeded: 0, failed: 0, total: 3 }, quotes: ['2', '3'] },
  PodRunning: { args: { running: 1, pending: 0, succeeded: 0, failed: 0, total: 1 }, quotes: ['1'] },
  PodFailed: { args: { running: 1, pending: 0, succeeded: 0, failed: 1, total: 2 }, quotes: ['1', '2'] },
  TaskCompleted: { args: { running: 0, pending: 0, succeeded: 4, failed: 0, total: 4 }, quotes: ['4'] },
  AccountArchived: { args: { account: 'course-101', by: 'ada' }, quotes: ['course-101', 'ada'] },
  BudgetStopped: { args: { graceMinutes: 10 }, quotes: ['10'] },
  NodeDrained: { args: { node: 'rtx4090-0', by: 'ada', reason: 'kernel upgrade' }, quotes: ['rtx4090-0', 'ada', 'kernel upgrade'] },
  Requeued: { args: { from: 'jab12cd', node: 'a100-1' }, quotes: ['jab12cd', 'a100-1'] },
  TensorboardIdle: { args: { panel: 'tb_abc', name: 'runs-june', idleSeconds: 3600 }, quotes: ['runs-june', '60'] },
};

describe('every history code the server writes', () => {
  it('has a sample here', () => {
    expect(Object.keys(HISTORY).sort()).toEqual([...codes.history].sort());
  });

  for (const code of codes.history) {
    for (const lang of LANGUAGES) {
      it(`${code} renders in ${lang}`, () => {
        const sample = HISTORY[code] ?? { quotes: [] };
        const h: JobTransition = {
          at: '2026-12-01T10:00:00Z',
          from: 'Pending',
          to: 'Running',
          reason: code,
          message: SERVER,
          args: sample.args ?? {},
        };
        const text = historyText(h, i18n.getFixedT(lang), nameOf);
        expect(text).not.toContain(SERVER);
        expect(text).not.toMatch(/\{\{|history\./);
        for (const q of sample.quotes) expect(text).toContain(q);
      });
    }
  }

  it('renders a rejection by its reason code, and says PodRunning in Chinese', () => {
    const rejected: JobTransition = {
      at: '2026-12-01T10:00:00Z',
      from: 'Queued',
      to: 'Rejected',
      reason: 'PodLargerThanAnyNode',
      message: SERVER,
      args: { requested: 16000, largestNode: 8000, resource: 'nvidia-a100-80gb' },
    };
    expect(historyText(rejected, i18n.getFixedT('en'), nameOf)).toContain('NVIDIA A100 80GB');
    const running: JobTransition = { ...rejected, to: 'Running', reason: 'PodRunning', args: { running: 1, total: 1 } };
    expect(historyText(running, i18n.getFixedT('zh-CN'), nameOf)).toBe('1 个 Pod 中有 1 个运行中');
    expect(historyText(running, i18n.getFixedT('en'), nameOf)).toBe('1 of 1 pod running');
  });

  it('keeps the server reason and message for codes it does not know', () => {
    const h: JobTransition = {
      at: '2026-12-01T10:00:00Z',
      from: 'Running',
      to: 'Failed',
      reason: 'OOMKilled',
      message: 'killed',
      args: null,
    };
    expect(historyText(h, i18n.getFixedT('zh-CN'))).toBe('OOMKilled: killed');
  });
});

const NOTIFICATIONS: Record<string, { args: Record<string, string | number>; quotes: string[] }> = {
  'approval.approved': { args: { request: 7, requestKind: 'quota-grant', comment: '' }, quotes: ['7'] },
  'approval.rejected': { args: { request: 8, requestKind: 'job-lock', comment: 'not now' }, quotes: ['8', 'not now'] },
  'job.time-limit': { args: { name: 'sweep', job: 'ab12cd', minutes: 30, at: '2026-12-01T10:30:00Z' }, quotes: ['sweep', 'ab12cd', '30'] },
  'job.reclaimed': { args: { job: 'ab12cd', claimant: 'zz99yy', account: 'vision-lab' }, quotes: ['ab12cd', 'zz99yy', 'vision-lab'] },
  'job.idle-warning': {
    args: { job: 'ab12cd', name: 'nb', model: 'nvidia-a100-80gb', accelerators: 1, peakPercent: 0, stopAt: '2026-12-01T12:00:00Z' },
    quotes: ['nb', 'NVIDIA A100 80GB', '2026-12-01T12:00:00Z'],
  },
  'job.node-drained': {
    args: { job: 'ab12cd', name: 'train', node: 'rtx4090-0', reason: 'kernel upgrade' },
    quotes: ['ab12cd', 'train', 'rtx4090-0', 'kernel upgrade'],
  },
  'job.idle-reclaimed': {
    args: { job: 'ab12cd', name: 'nb', model: 'nvidia-a100-80gb', accelerators: 2, peakPercent: 1.25 },
    quotes: ['nb', 'NVIDIA A100 80GB', '2'],
  },
  'job.admitted': { args: { job: 'ab12cd', name: 'sweep', reason: 'Admitted', detail: 'within quota' }, quotes: ['sweep', 'ab12cd'] },
  'job.started': { args: { job: 'ab12cd', name: 'sweep' }, quotes: ['sweep', 'ab12cd'] },
  'job.succeeded': { args: { job: 'ab12cd', name: 'sweep' }, quotes: ['sweep', 'ab12cd'] },
  'job.failed': {
    args: { job: 'ab12cd', name: 'sweep', reason: 'PodFailed', detail: 'Task main failed', exitCode: 137, exitReason: 'OOMKilled' },
    quotes: ['sweep', 'ab12cd', '137', 'OOMKilled', 'PodFailed', 'Task main failed'],
  },
  'job.waiting': {
    args: { job: 'ab12cd', name: 'sweep', minutes: 45, reason: 'AccountQuotaExceeded', detail: 'account quota of cpu exceeded' },
    quotes: ['sweep', 'ab12cd', '45', 'account quota of cpu exceeded'],
  },
  'budget.threshold': {
    args: { account: 'vision', percent: 80, balance: '12.5', currency: 'points', periodEnd: '2027-01-01T00:00:00Z' },
    quotes: ['vision', '80', '12.5', 'points', '2027-01-01 00:00'],
  },
  'node.gpu-quarantined': {
    args: { node: 'a100-4', reason: 'GPU 3 reported XID 79, which needs the card reset or replaced' },
    quotes: ['a100-4', 'GPU 3 reported XID 79, which needs the card reset or replaced'],
  },
  'allotment.threshold': {
    args: { account: 'vision', percent: 100, left: '-0.5', amount: '50', currency: 'points', periodEnd: '2027-01-01T00:00:00Z' },
    quotes: ['vision', '100', '-0.5', '50', 'points', '2027-01-01 00:00'],
  },
};

describe('every notification kind', () => {
  it('has a sample here', () => {
    expect(Object.keys(NOTIFICATIONS).sort()).toEqual([...codes.notifications].sort());
  });

  for (const kind of codes.notifications) {
    for (const lang of LANGUAGES) {
      it(`${kind} renders in ${lang} from its arguments`, () => {
        const sample = NOTIFICATIONS[kind]!;
        const n: Notification = { id: '1', kind, message: SERVER, args: sample.args, link: null, createdAt: '', readAt: null };
        const text = notificationText(n, i18n.getFixedT(lang), nameOf);
        expect(text).not.toContain(SERVER);
        expect(text).not.toMatch(/\{\{|notifications\./);
        for (const q of sample.quotes) expect(text).toContain(q);
      });
    }
  }

  it('shows the server text for a notification written without arguments', () => {
    const n: Notification = { id: '1', kind: 'job.time-limit', message: SERVER, args: null, link: null, createdAt: '', readAt: null };
    expect(notificationText(n, i18n.getFixedT('zh-CN'))).toBe(SERVER);
  });
});
