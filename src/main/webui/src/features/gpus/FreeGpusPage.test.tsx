import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { FreeAccelerators } from '../../api/types';
import { json, mockFetch, problem, type Answer } from '../../test/mockFetch';
import { FreeGpusPage } from './FreeGpusPage';

afterEach(() => vi.unstubAllGlobals());

/** 16 A100s on two nodes, one of them cordoned; 8 H100s needing an access request; one account with room. */
const FREE: FreeAccelerators = {
  models: [
    {
      model: 'nvidia-a100-80gb',
      displayName: 'NVIDIA A100 80GB',
      vendor: 'NVIDIA',
      memoryMiB: 81920,
      restricted: false,
      total: 16,
      free: 5,
      mostOnOneNode: 5,
      nodes: [
        { name: 'a100-0', total: 8, free: 5, memoryMiB: 81920, schedulable: true },
        { name: 'a100-1', total: 8, free: 0, memoryMiB: null, schedulable: false },
      ],
    },
    {
      model: 'nvidia-h100-80gb',
      displayName: 'NVIDIA H100 80GB',
      vendor: 'NVIDIA',
      memoryMiB: null,
      restricted: true,
      total: 8,
      free: 8,
      mostOnOneNode: 8,
      nodes: [{ name: 'h100-0', total: 8, free: 8, memoryMiB: 512, schedulable: true }],
    },
  ],
  accounts: [
    {
      account: 'vision-lab',
      models: [
        { model: 'nvidia-h100-80gb', used: 0, guaranteed: 0, max: 0, withinGuarantee: 0, memberLeft: null, mayStillUse: 0 },
        { model: 'nvidia-a100-80gb', used: 3, guaranteed: 4, max: 8, withinGuarantee: 1, memberLeft: 2, mayStillUse: 2 },
      ],
    },
  ],
};

function renderPage(answer: Answer | Answer[]) {
  const sent = mockFetch({ 'GET /api/v1/cluster/free-accelerators': answer });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/free-gpus']}>
        <FreeGpusPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

const cardsOf = (row: HTMLElement, part: string) => within(row).getByTestId(`free-chart-${part}`);

describe('the free GPUs page', () => {
  it('plots a bar per model on one scale: free, in use or reserved, and on nodes that take no pods', async () => {
    const sent = renderPage(json(FREE));
    expect(screen.getByText('Loading…')).toBeTruthy();
    const rows = await screen.findAllByTestId('free-chart-row');
    expect(rows.map((r) => r.dataset.model)).toEqual(['nvidia-a100-80gb', 'nvidia-h100-80gb']);
    const [a100, h100] = rows as [HTMLElement, HTMLElement];
    expect(['free', 'taken', 'offline'].map((p) => cardsOf(a100, p).dataset.cards)).toEqual(['5', '3', '8']);
    expect(cardsOf(a100, 'free').style.width).toBe('31.25%');
    expect(cardsOf(a100, 'offline').style.width).toBe('50%');
    expect(within(a100).getByTestId('free-chart-numbers').textContent).toBe('5 free / 16 cards');
    expect(within(a100).getByRole('img').getAttribute('aria-label')).toBe(
      'NVIDIA A100 80GB: 5 free, 3 in use or reserved, 8 on nodes that take no pods, of 16 cards',
    );
    // The H100s' bar is half as long as the A100s': the bars share the largest model's scale.
    expect((within(h100).getByRole('img').firstElementChild as HTMLElement).style.width).toBe('50%');
    expect(cardsOf(h100, 'free').style.width).toBe('100%');
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/cluster/free-accelerators']);
  });

  it('lists each model with its free cards, card memory and nodes, and marks the restricted one', async () => {
    renderPage(json(FREE));
    const models = await screen.findAllByTestId('free-model');
    const [a100, h100] = models as [HTMLElement, HTMLElement];
    expect(within(a100).getByTestId('free-model-free').textContent).toBe('5');
    expect(a100.textContent).toContain('free of 16 cards');
    expect(a100.textContent).toContain('80 GiB per card');
    expect(within(a100).getByTestId('free-model-most').textContent).toBe('at most 5 cards on one node');
    const nodes = within(a100).getAllByTestId('free-node');
    expect(nodes.map((n) => [n.dataset.node, within(n).getByTestId('free-node-free').textContent])).toEqual([
      ['a100-0', '5 / 8 cards'],
      ['a100-1', '0 / 8 cards'],
    ]);
    expect(nodes[0]!.textContent).toContain('80 GiB');
    expect(within(nodes[1]!).getByTestId('status-badge').dataset.status).toBe('unschedulable');
    expect(within(a100).queryByText('Needs an approved access request')).toBeNull();
    expect(within(h100).getByText('Needs an approved access request')).toBeTruthy();
    expect(within(h100).getByTestId('free-node').textContent).toContain('512 MiB');
  });

  it("shows what the caller's accounts may still use, most room first, in cards", async () => {
    renderPage(json(FREE));
    const account = await screen.findByTestId('free-account');
    expect(account.dataset.account).toBe('vision-lab');
    const rows = within(account).getAllByTestId('free-room');
    expect(rows.map((r) => r.dataset.model)).toEqual(['nvidia-a100-80gb', 'nvidia-h100-80gb']);
    const cells = (r: HTMLElement) => Array.from(r.querySelectorAll('td')).map((c) => c.textContent);
    expect(cells(rows[0]!)).toEqual(['NVIDIA A100 80GB', '2 cards', '1 card', '3 / 8 cards', '4 cards', '2 cards']);
    expect(cells(rows[1]!)).toEqual(['NVIDIA H100 80GB', '0 cards', '0 cards', '0 / 0 cards', '0 cards', 'no limit']);
  });

  it('says so when the catalogue has no model', async () => {
    renderPage(json({ models: [], accounts: [] }));
    expect((await screen.findByTestId('empty-state')).textContent).toContain('No accelerator models in the catalogue');
    expect(screen.queryByTestId('free-chart')).toBeNull();
  });

  it('says so when the caller is in no account', async () => {
    renderPage(json({ ...FREE, accounts: [] }));
    expect((await screen.findByTestId('empty-state')).textContent).toBe('You are in no account yet, so there is no quota to use.');
    expect(screen.getAllByTestId('free-chart-row')).toHaveLength(2);
  });

  it('shows a failure with a retry that reads again', async () => {
    const sent = renderPage([problem(500, 'Internal', 'boom'), json(FREE)]);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The free accelerators could not be loaded');
    expect(error.textContent).toContain('boom');
    fireEvent.click(within(error).getByText('Retry'));
    expect(await screen.findAllByTestId('free-chart-row')).toHaveLength(2);
    expect(sent).toHaveLength(2);
  });
});
