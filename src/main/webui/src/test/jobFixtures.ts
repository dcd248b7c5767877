import type { JobDetail, JobPod, JobSummary } from '../api/types';

export function makeJob(id: string, overrides: Partial<JobSummary> = {}): JobSummary {
  return {
    id,
    name: `train-${id}`,
    kind: 'custom',
    state: 'Running',
    account: 'vision-lab',
    owner: 'alice',
    requests: { cpu: '4', memory: '16Gi' },
    borrowing: false,
    reasons: [],
    createdAt: '2025-03-01T10:00:00Z',
    startedAt: '2025-03-01T10:01:00Z',
    finishedAt: null,
    ...overrides,
  };
}

export function makePod(name: string, overrides: Partial<JobPod> = {}): JobPod {
  return {
    name,
    task: 'main',
    index: 0,
    phase: 'Running',
    node: 'gpu-node-1',
    acceleratorModel: 'nvidia-a100-80gb',
    accelerators: 2,
    startedAt: '2025-03-01T10:01:00Z',
    containers: [{ name: 'main', state: 'running', reason: null, exitCode: null, message: null, restarts: 0 }],
    ...overrides,
  };
}

export function makeDetail(job: JobSummary, overrides: Partial<JobDetail> = {}): JobDetail {
  return {
    job,
    spec: {
      name: job.name,
      kind: job.kind,
      image: 'python:3.12',
      command: ['python', 'train.py'],
      resources: { cpu: '4', memory: '16Gi' },
    },
    stateReason: null,
    stateMessage: null,
    history: [],
    template: null,
    sourceJob: null,
    pods: [],
    events: [],
    exits: [],
    permissions: { stop: true, delete: true, readLogs: true, resubmit: true },
    mounts: [],
    ...overrides,
  };
}
