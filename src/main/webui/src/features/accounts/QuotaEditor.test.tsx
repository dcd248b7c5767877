import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as accountsApi from '../../api/accounts';
import * as modelsApi from '../../api/acceleratorModels';
import type { Account, QuotaLine } from '../../api/types';
import { makeNode } from '../../test/fixtures';
import { QuotaEditor } from './QuotaEditor';
import { StartBlockerNote } from './QuotaSection';
import { companionWarning, editorRows, fleetRatios, nonZeroRows, startBlockers } from './quotaEditor';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, putQuota: vi.fn() };
});
vi.mock('../../api/acceleratorModels', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/acceleratorModels')>();
  return { ...actual, listAcceleratorModels: vi.fn() };
});

const api = vi.mocked(accountsApi);
const models = vi.mocked(modelsApi);
const GiB = 1024 ** 3;

function line(resource: string, amounts: Partial<QuotaLine> = {}): QuotaLine {
  return {
    resource,
    displayName: resource,
    guaranteed: '0',
    max: '0',
    used: '0',
    granted: '0',
    borrowed: '0',
    guaranteedMilli: 0,
    maxMilli: 0,
    usedMilli: 0,
    grantedMilli: 0,
    borrowedMilli: 0,
    ...amounts,
  };
}

// Two A100 nodes of 8 devices: 128 cores + 1 TiB and 64 cores + 512 GiB → 12 cores and 96 GiB per device.
const NODES = [
  makeNode('a1', { cpu: { totalMilli: 128_000, allocatedMilli: 0 }, memory: { totalBytes: 1024 * GiB, allocatedBytes: 0 } }),
  makeNode('a2', { cpu: { totalMilli: 64_000, allocatedMilli: 0 }, memory: { totalBytes: 512 * GiB, allocatedBytes: 0 } }),
  makeNode('cpu-only', { accelerator: null, cpu: { totalMilli: 256_000, allocatedMilli: 0 } }),
];

describe('fleetRatios', () => {
  it('divides the CPU and memory of the nodes carrying a model by their devices, ignoring nodes without any', () => {
    expect(fleetRatios(NODES).get('nvidia-a100-80gb')).toEqual({
      model: 'nvidia-a100-80gb',
      devices: 16,
      cpuMilliPerDevice: 12_000,
      memoryBytesPerDevice: 96 * GiB,
    });
    expect(fleetRatios(NODES).size).toBe(1);
  });
});

describe('companionWarning', () => {
  const ratios = fleetRatios(NODES);
  const cases = [
    {
      name: 'GPU only: both missing, suggested from guaranteed and max',
      rows: [{ resource: 'nvidia-a100-80gb', guaranteed: '2', max: '4' }],
      expected: {
        models: ['nvidia-a100-80gb'],
        missing: ['cpu', 'memory'],
        suggestion: { cpu: { guaranteed: '24', max: '48' }, memory: { guaranteed: '192', max: '384' } },
      },
    },
    {
      name: 'memory present, cpu at 0',
      rows: [
        { resource: 'cpu', guaranteed: '0', max: '0' },
        { resource: 'memory', guaranteed: '64', max: '64' },
        { resource: 'nvidia-a100-80gb', guaranteed: '0', max: '1' },
      ],
      expected: { models: ['nvidia-a100-80gb'], missing: ['cpu'], suggestion: { cpu: { guaranteed: '0', max: '12' } } },
    },
    {
      name: 'a model no node carries: warned without a ratio',
      rows: [{ resource: 'ascend-910b', guaranteed: '1', max: '1' }],
      expected: { models: ['ascend-910b'], missing: ['cpu', 'memory'], suggestion: null },
    },
    {
      name: 'cpu and memory given: no warning',
      rows: [
        { resource: 'cpu', guaranteed: '8', max: '8' },
        { resource: 'memory', guaranteed: '64', max: '64' },
        { resource: 'nvidia-a100-80gb', guaranteed: '1', max: '1' },
      ],
      expected: null,
    },
    { name: 'no accelerator quota: no warning', rows: [{ resource: 'cpu', guaranteed: '0', max: '0' }], expected: null },
  ];
  it.each(cases)('$name', ({ rows, expected }) => {
    expect(companionWarning(rows, ratios)).toEqual(expected);
  });
});

describe('editorRows, nonZeroRows and startBlockers', () => {
  it('lists cpu, memory, every model and a leftover line; sends only non-zero rows', () => {
    const rows = editorRows([line('old-model', { guaranteed: '1', max: '2' }), line('cpu', { max: '8' })], ['nvidia-a100-80gb']);
    expect(rows).toEqual([
      { resource: 'cpu', guaranteed: '0', max: '8' },
      { resource: 'memory', guaranteed: '0', max: '0' },
      { resource: 'nvidia-a100-80gb', guaranteed: '0', max: '0' },
      { resource: 'old-model', guaranteed: '1', max: '2' },
    ]);
    expect(nonZeroRows(rows).map((r) => r.resource)).toEqual(['cpu', 'old-model']);
  });
  it('names what no job can start without, grants counting', () => {
    expect(startBlockers([line('nvidia-a100-80gb', { maxMilli: 4000 })])).toEqual(['cpu', 'memory']);
    expect(startBlockers([line('cpu', { grantedMilli: 2000 }), line('memory', { maxMilli: 1 })])).toEqual([]);
  });
  it('says so on the account page', () => {
    render(<StartBlockerNote lines={[line('cpu', { maxMilli: 8000 })]} platformAdmin={false} />);
    expect(screen.getByTestId('quota-start-blocker').textContent).toContain(
      'No job can start here until the account has a quota for Memory',
    );
  });
});

const ACCOUNT: Account = {
  slug: 'vision-lab',
  name: 'Vision Lab',
  kind: 'team',
  gid: 200001,
  expiresAt: null,
  archivedAt: null,
  myRole: null,
  quota: [],
};

beforeEach(() => {
  api.putQuota.mockReset();
  models.listAcceleratorModels.mockResolvedValue({
    items: [
      {
        key: 'nvidia-a100-80gb',
        displayName: 'NVIDIA A100 80GB',
        vendor: 'NVIDIA',
        resource: 'nvidia.com/gpu',
        labelKey: 'nvidia.com/gpu.product',
        labelValue: 'NVIDIA-A100-SXM4-80GB',
        restricted: false,
        memoryMiB: null,
        memoryResource: null,
        retired: false,
        retiredAt: null,
      },
    ],
  });
});

describe('QuotaEditor', () => {
  it('edits a GPU row in one step, warns of the missing CPU and memory, applies the ratio and saves non-zero rows', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    const onDone = vi.fn();
    render(
      <QueryClientProvider client={client}>
        <QuotaEditor account={ACCOUNT} nodes={NODES} onDone={onDone} />
      </QueryClientProvider>,
    );
    const gpuMax = (await screen.findByTestId('quota-max-nvidia-a100-80gb')) as HTMLInputElement;
    expect(screen.queryByTestId('quota-companion-warning')).toBeNull();
    fireEvent.change(screen.getByTestId('quota-guaranteed-nvidia-a100-80gb'), { target: { value: '2' } });
    fireEvent.change(gpuMax, { target: { value: '4' } });

    const warning = screen.getByTestId('quota-companion-warning');
    expect(warning.textContent).toContain('NVIDIA A100 80GB has a quota, but there is none for CPU and Memory');
    expect(screen.getByTestId('quota-ratio-suggestion').textContent).toBe(
      "CPU by the fleet's ratio: 24 guaranteed, 48 max cores; memory: 192 guaranteed, 384 max GiB",
    );
    fireEvent.click(screen.getByTestId('quota-apply-ratio'));
    expect((screen.getByTestId('quota-max-cpu') as HTMLInputElement).value).toBe('48');
    expect((screen.getByTestId('quota-max-memory') as HTMLInputElement).value).toBe('384');
    expect(screen.queryByTestId('quota-companion-warning')).toBeNull();

    api.putQuota.mockResolvedValue(ACCOUNT);
    fireEvent.click(screen.getByTestId('quota-save'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(api.putQuota).toHaveBeenCalledWith('vision-lab', [
      { resource: 'cpu', guaranteed: '24', max: '48' },
      { resource: 'memory', guaranteed: '192Gi', max: '384Gi' },
      { resource: 'nvidia-a100-80gb', guaranteed: '2', max: '4' },
    ]);
  });
});
