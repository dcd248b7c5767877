import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AcceleratorModelsPage, ModelRow } from './AcceleratorModelsPage';
import { modelChanges } from './modelChanges';
import type { AcceleratorModel, ModelProposal } from '../../api/types';
import { json, mockFetch, problem } from '../../test/mockFetch';

const a100: AcceleratorModel = {
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
};

function row(model: AcceleratorModel) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <table>
        <tbody>
          <ModelRow model={model} />
        </tbody>
      </table>
    </QueryClientProvider>,
  );
}

describe('the access checkbox of an accelerator model', () => {
  it('keeps its label when ticked and says what each state means', () => {
    row(a100);
    const box = screen.getByTestId('model-restricted') as HTMLInputElement;
    const label = box.closest('label')!;
    expect(box.checked).toBe(false);
    expect(label.textContent).toBe('Restricted');
    expect(screen.getByTestId('model-access-meaning').textContent).toBe('Every account may use it within its quota');
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    expect(label.textContent).toBe('Restricted');
    expect(screen.getByTestId('model-access-meaning').textContent).toBe('Only accounts with an approved request may use it');
  });

  it('sends only what changed', () => {
    expect(modelChanges(a100, { displayName: a100.displayName, vendor: a100.vendor, restricted: true })).toEqual({
      restricted: true,
    });
    expect(modelChanges(a100, { displayName: a100.displayName, vendor: a100.vendor, restricted: false })).toEqual({});
  });
});

function page(routes: Parameters<typeof mockFetch>[0]) {
  const sent = mockFetch(routes);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AcceleratorModelsPage />
    </QueryClientProvider>,
  );
  return sent;
}

const MIG: ModelProposal = {
  key: 'nvidia-a30-mig-1g-6gb',
  resource: 'nvidia.com/mig-1g.6gb',
  labelKey: 'nvidia.com/gpu.product',
  labelValue: 'NVIDIA-A30',
  displayName: 'NVIDIA A30 MIG 1g.6gb',
  vendor: 'NVIDIA',
  memoryMiB: 6144,
  memoryResource: null,
  nodes: ['mig-0', 'mig-1'],
  count: 8,
};

describe('the catalogue page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows memory with its unit, and a delete refused because the model is used, in words', async () => {
    const sent = page({
      'GET /api/v1/accelerator-models': json({ items: [{ ...a100, memoryMiB: 81920 }] }),
      'GET /api/v1/accelerator-models/proposals': json({ items: [] }),
      'DELETE /api/v1/accelerator-models/nvidia-a100-80gb': problem(409, 'ModelInUse', "model 'nvidia-a100-80gb' is used by quotas (2)", [
        { field: 'quotas', message: '2' },
        { field: 'jobs', message: '5' },
      ]),
    });
    expect((await screen.findByTestId('model-memory-text')).textContent).toBe('80 GiB');
    expect(await screen.findByText('Every accelerator the nodes publish is in the catalogue.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('model-delete'));
    fireEvent.click(screen.getByTestId('model-delete-confirm'));
    const refusal = await screen.findByTestId('form-error');
    expect(refusal.dataset.code).toBe('ModelInUse');
    expect(refusal.textContent).toContain('Cannot delete: used by quotas (2), jobs (5). Retire it instead');
    expect(sent.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('retires a model and marks it', async () => {
    const retired = { ...a100, retired: true, retiredAt: '2026-12-02T03:00:00Z' };
    const sent = page({
      'GET /api/v1/accelerator-models': [json({ items: [a100] }), json({ items: [retired] })],
      'GET /api/v1/accelerator-models/proposals': json({ items: [] }),
      'POST /api/v1/accelerator-models/nvidia-a100-80gb/retire': json(retired),
    });
    fireEvent.click(await screen.findByTestId('model-retire'));
    expect((await screen.findByTestId('model-retired')).textContent).toBe('retired 2026-12-02');
    expect(screen.getByTestId('model-retire').textContent).toBe('Bring back');
    expect(sent.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/v1/accelerator-models/nvidia-a100-80gb/retire');
  });

  it('adds a model, showing the refusal under the field it names', async () => {
    const sent = page({
      'GET /api/v1/accelerator-models': json({ items: [a100] }),
      'GET /api/v1/accelerator-models/proposals': json({ items: [] }),
      'POST /api/v1/accelerator-models': problem(400, 'InvalidModel', 'the model cannot be added as given', [
        { field: 'resource', message: 'an extended resource name such as nvidia.com/gpu' },
      ]),
    });
    await screen.findByTestId('model-row');
    fireEvent.change(screen.getByTestId('new-model-key'), { target: { value: 'hygon-dcu' } });
    fireEvent.change(screen.getByTestId('new-model-resource'), { target: { value: 'dcu' } });
    fireEvent.change(screen.getByTestId('new-model-memoryMiB'), { target: { value: '65536' } });
    fireEvent.click(screen.getByTestId('new-model-submit'));
    expect(await screen.findByText('an extended resource name such as nvidia.com/gpu')).toBeTruthy();
    const body = sent.find((r) => r.method === 'POST')?.body;
    expect(body).toMatchObject({ key: 'hygon-dcu', resource: 'dcu', labelKey: null, labelValue: null, memoryMiB: 65536 });
  });

  it('lists what the nodes propose and accepts one', async () => {
    const sent = page({
      'GET /api/v1/accelerator-models': json({ items: [a100] }),
      'GET /api/v1/accelerator-models/proposals': [json({ items: [MIG] }), json({ items: [] })],
      'POST /api/v1/accelerator-models/proposals/nvidia-a30-mig-1g-6gb/accept': json({ ...a100, key: MIG.key }, 201),
    });
    const row = await screen.findByTestId('proposal-row');
    expect(row.textContent).toContain('nvidia.com/mig-1g.6gb · nvidia.com/gpu.product=NVIDIA-A30');
    expect(row.textContent).toContain('6 GiB');
    expect(row.textContent).toContain('on 2 nodes: mig-0, mig-1');
    fireEvent.click(screen.getByTestId('proposal-accept'));
    await waitFor(() => expect(screen.queryByTestId('proposal-row')).toBeNull());
    expect(sent.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/v1/accelerator-models/proposals/nvidia-a30-mig-1g-6gb/accept');
  });

  it('says when the proposals cannot be read', async () => {
    page({
      'GET /api/v1/accelerator-models': json({ items: [a100] }),
      'GET /api/v1/accelerator-models/proposals': problem(500, 'Internal', 'boom'),
    });
    expect(await screen.findByText("Could not read the nodes' accelerators.")).toBeTruthy();
  });
});
