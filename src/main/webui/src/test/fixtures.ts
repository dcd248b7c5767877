import type { AcceleratorSummary, ClusterNode } from '../api/types';

const GiB = 1024 ** 3;

export function makeNode(name: string, overrides: Partial<ClusterNode> = {}): ClusterNode {
  return {
    name,
    ready: true,
    schedulable: true,
    accelerator: {
      model: 'nvidia-a100-80gb',
      displayName: 'NVIDIA A100 80GB',
      vendor: 'NVIDIA',
      resource: 'nvidia.com/gpu',
      total: 8,
      allocated: 2,
    },
    cpu: { totalMilli: 64000, allocatedMilli: 4000 },
    memory: { totalBytes: 512 * GiB, allocatedBytes: 16 * GiB },
    pods: 3,
    labels: {},
    uncovered: [],
    taints: [],
    cordon: null,
    exclusive: null,
    health: null,
    ...overrides,
  };
}

export const ACCELERATORS: AcceleratorSummary[] = [
  {
    model: 'nvidia-a100-80gb',
    displayName: 'NVIDIA A100 80GB',
    vendor: 'NVIDIA',
    resource: 'nvidia.com/gpu',
    nodes: 4,
    total: 32,
    allocated: 8,
    free: 24,
  },
  {
    model: 'ascend-910b',
    displayName: 'Huawei Ascend 910B',
    vendor: 'Huawei',
    resource: 'huawei.com/Ascend910',
    nodes: 2,
    total: 16,
    allocated: 16,
    free: 0,
  },
];
