import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { Price, PriceBook, User } from '../../api/types';
import { json, mockFetch, problem, type Answer } from '../../test/mockFetch';
import { CurrentUserContext } from '../auth/session';
import { PricesPage } from './PricesPage';

const ADMIN: User = { id: 'u1', username: 'admin', displayName: 'Admin', role: 'admin' };
const MEMBER: User = { id: 'u2', username: 'alice', displayName: 'Alice', role: 'user' };

const price = (resource: string, unit: string, pricePerHour: string, effectiveFrom: string): Price => ({
  resource,
  unit,
  pricePerHour,
  microsPerHour: Math.round(Number(pricePerHour) * 1e6),
  effectiveFrom,
  by: 'admin',
});

const A100_OLD = price('nvidia-a100-80gb', 'device-hour', '2', '2026-01-01T00:00:00Z');
const A100 = price('nvidia-a100-80gb', 'device-hour', '2.5', '2026-06-01T00:00:00Z');
const A100_NEXT = price('nvidia-a100-80gb', 'device-hour', '3', '2099-01-01T00:00:00Z');
const CPU = price('cpu', 'core-hour', '0.04', '2026-01-01T00:00:00Z');
const BOOK: PriceBook = { currency: 'points', current: [CPU, A100], history: [CPU, A100_OLD, A100, A100_NEXT] };

const MODELS = {
  items: [
    {
      key: 'nvidia-a100-80gb',
      displayName: 'NVIDIA A100 80GB',
      vendor: 'NVIDIA',
      resource: 'nvidia.com/gpu',
      labelKey: '',
      labelValue: '',
      restricted: false,
      memoryMiB: null,
      memoryResource: null,
      retired: false,
      retiredAt: null,
    },
  ],
};

function renderPage(user: User, prices: Answer | Answer[], extra: Record<string, Answer | Answer[]> = {}) {
  const sent = mockFetch({
    'GET /api/v1/accounting/prices': prices,
    'GET /api/v1/accelerator-models': json(MODELS),
    ...extra,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CurrentUserContext.Provider value={user}>
          <PricesPage />
        </CurrentUserContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

function rowTexts(testId: string): string[][] {
  return within(screen.getByTestId(testId))
    .getAllByTestId('price-row')
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent ?? ''),
    );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the prices page', () => {
  it('shows everyone the prices in force, with display names and units, and no form for members', async () => {
    renderPage(MEMBER, json(BOOK));
    expect(screen.getByRole('status')).toBeTruthy();
    await screen.findByTestId('price-current');
    await waitFor(() => expect(screen.getByText('NVIDIA A100 80GB')).toBeTruthy());
    const rows = rowTexts('price-current');
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ['CPUcpu', 'core-hour', '0.04 points per core-hour'],
      ['NVIDIA A100 80GBnvidia-a100-80gb', 'device-hour', '2.5 points per device-hour'],
    ]);
    expect(screen.queryByTestId('price-form')).toBeNull();
    expect(screen.queryByTestId('price-history')).toBeNull();
  });

  it('says that usage is free while no price is set, and shows load failures with a retry', async () => {
    renderPage(MEMBER, [problem(500, 'ServerError', 'the database is down'), json({ currency: 'points', current: [], history: [] })]);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('Could not load the prices.');
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    const empty = await screen.findByTestId('empty-state');
    expect(empty.textContent).toBe('No prices set.Until a resource has a price, holding it is free.');
  });

  it('shows platform admins every version, the scheduled one marked', async () => {
    renderPage(ADMIN, json(BOOK));
    await screen.findByTestId('price-history');
    const rows = rowTexts('price-history');
    expect(rows.map((r) => r[2])).toEqual([
      '0.04 points per core-hour',
      '2 points per device-hour',
      '2.5 points per device-hour',
      '3 points per device-hour',
    ]);
    expect(rows.map((r) => r[3]!.endsWith('scheduled'))).toEqual([false, false, false, true]);
    expect(rows.every((r) => r[4] === 'admin')).toBe(true);
  });

  it('lets a platform admin add a price: server field errors under their fields, then the book again', async () => {
    const added = price('nvidia-a100-80gb', 'device-hour', '2.75', '2099-02-01T00:00:00Z');
    const sent = renderPage(ADMIN, [json(BOOK), json({ ...BOOK, history: [...BOOK.history, added] })], {
      'POST /api/v1/accounting/prices': [
        problem(400, 'InvalidPrice', 'the price is not valid', [
          { field: 'effectiveFrom', message: 'must not be in the past: settled usage keeps the price it was charged at' },
        ]),
        json(added, 201),
      ],
    });
    const form = within(await screen.findByTestId('price-form'));
    expect(form.getByText('Empty: from now. A price never changes the past.')).toBeTruthy();
    const resource = form.getByTestId('price-resource') as HTMLSelectElement;
    await waitFor(() => expect(Array.from(resource.options).map((o) => o.value)).toEqual(['cpu', 'memory', 'storage', 'nvidia-a100-80gb']));
    fireEvent.change(resource, { target: { value: 'storage' } });
    expect(form.getByText('Price (points per GiB-hour (a GiB-month is 730))')).toBeTruthy();
    fireEvent.change(resource, { target: { value: 'nvidia-a100-80gb' } });
    expect(form.getByText('Price (points per device-hour)')).toBeTruthy();
    fireEvent.change(form.getByTestId('price-amount'), { target: { value: '2,75' } });
    expect(form.getByTestId('price-amount-note').textContent).toBe('= 2.75 points');
    fireEvent.change(form.getByTestId('price-from'), { target: { value: '2020-01-01T00:00' } });
    fireEvent.click(form.getByTestId('price-save'));

    const fromError = await form.findByText('must not be in the past: settled usage keeps the price it was charged at');
    expect(fromError.closest('label')?.querySelector('[data-testid="price-from"]')).toBeTruthy();
    expect(form.getByTestId('form-error').dataset.code).toBe('InvalidPrice');
    const posts = sent.filter((r) => r.method === 'POST');
    expect(posts[0]!.body).toEqual({
      resource: 'nvidia-a100-80gb',
      pricePerHour: '2.75',
      effectiveFrom: new Date('2020-01-01T00:00').toISOString(),
    });

    // Cleared, the time means from now and is left out.
    fireEvent.change(form.getByTestId('price-from'), { target: { value: '' } });
    fireEvent.click(form.getByTestId('price-save'));
    expect((await form.findByTestId('price-added')).textContent).toBe(
      'NVIDIA A100 80GB now costs 2.75 points per device-hour from the time given.',
    );
    expect(sent.filter((r) => r.method === 'POST')[1]!.body).toEqual({ resource: 'nvidia-a100-80gb', pricePerHour: '2.75' });
    await waitFor(() => expect(rowTexts('price-history')).toHaveLength(5));
    expect((form.getByTestId('price-amount') as HTMLInputElement).value).toBe('');
  });

  it('checks the price before sending it', async () => {
    const sent = renderPage(ADMIN, json(BOOK));
    const form = within(await screen.findByTestId('price-form'));
    fireEvent.change(form.getByTestId('price-amount'), { target: { value: '-1' } });
    fireEvent.click(form.getByTestId('price-save'));
    expect(form.getByTestId('price-amount-note').textContent).toBe('Must not be negative.');
    expect(form.getByTestId('price-amount').getAttribute('aria-invalid')).toBe('true');
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
  });
});
