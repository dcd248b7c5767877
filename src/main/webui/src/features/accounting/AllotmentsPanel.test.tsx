import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Allotment, AllotmentList } from '../../api/types';
import i18n from '../../i18n';
import { json, mockFetch, problem, type Answer } from '../../test/mockFetch';
import { AllotmentsPanel } from './AllotmentsPanel';

const BASE = '/api/v1/accounting/accounts/vision-lab/budget/allotments';

const ANN: Allotment = {
  user: 'ann',
  amount: '50',
  amountMicros: 50_000_000,
  spent: '47.5',
  spentMicros: 47_500_000,
  left: '2.5',
  leftMicros: 2_500_000,
  usedPercent: 95,
};
const BOB: Allotment = {
  user: 'bob',
  amount: null,
  amountMicros: null,
  spent: '3',
  spentMicros: 3_000_000,
  left: null,
  leftMicros: null,
  usedPercent: null,
};

function list(items: Allotment[], budget = true): AllotmentList {
  return {
    account: 'vision-lab',
    currency: 'points',
    budget: budget
      ? {
          amount: '500',
          amountMicros: 500_000_000,
          period: 'month',
          periodDays: null,
          policy: 'hard',
          renewal: 'debt',
          periodStart: '2026-12-01T00:00:00Z',
          periodEnd: '2027-01-01T00:00:00Z',
        }
      : null,
    allotted: '50',
    allottedMicros: items.reduce((s, a) => s + (a.amountMicros ?? 0), 0),
    items,
  };
}

function renderPanel(admin: boolean, answers: Record<string, Answer | Answer[]>) {
  const sent = mockFetch(answers);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AllotmentsPanel slug="vision-lab" admin={admin} />
    </QueryClientProvider>,
  );
  return sent;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('allotments per member', () => {
  it('shows an admin every member with amount, spent, left and a bar, and sets one', async () => {
    const sent = renderPanel(true, {
      [`GET ${BASE}`]: [
        json(list([ANN, BOB])),
        json(list([ANN, { ...BOB, amount: '20', amountMicros: 20_000_000, left: '17', leftMicros: 17_000_000, usedPercent: 15 }])),
      ],
      [`PUT ${BASE}/bob`]: [
        problem(400, 'InvalidAllotment', 'the allotment is not valid', [
          { field: 'amount', message: "at most the budget's amount of 500" },
        ]),
        json(BOB),
      ],
    });
    expect(screen.getByRole('status')).toBeTruthy();
    const rows = await screen.findAllByTestId('allotment-row');
    expect(rows.map((r) => r.dataset.user)).toEqual(['ann', 'bob']);
    expect(within(rows[0]!).getByTestId('allotment-cell-amount').textContent).toBe('50 points');
    expect(within(rows[0]!).getByTestId('allotment-cell-left').textContent).toBe('2.5 points');
    expect(rows[0]!.textContent).toContain('47.5 points');
    expect(within(rows[0]!).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('95');
    expect(within(rows[1]!).getByTestId('allotment-cell-amount').textContent).toBe('No allotment');
    expect(within(rows[1]!).queryByRole('progressbar')).toBeNull();
    expect(screen.getByTestId('allotments-total').textContent).toBe('Allotted together: 50 points (budget: 500 points per month)');

    fireEvent.click(within(rows[1]!).getByTestId('allotment-edit'));
    fireEvent.change(screen.getByTestId('allotment-amount'), { target: { value: '900' } });
    fireEvent.click(screen.getByTestId('allotment-save'));
    expect(await screen.findByText("at most the budget's amount of 500")).toBeTruthy();
    fireEvent.change(screen.getByTestId('allotment-amount'), { target: { value: '20' } });
    fireEvent.click(screen.getByTestId('allotment-save'));
    await waitFor(() => expect(screen.queryByTestId('allotment-form')).toBeNull());
    const puts = sent.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toEqual([{ amount: '900' }, { amount: '20' }]);
    await waitFor(() =>
      expect(within(screen.getAllByTestId('allotment-row')[1]!).getByTestId('allotment-cell-amount').textContent).toBe('20 points'),
    );
  });

  it('removes an allotment after a confirmation', async () => {
    const sent = renderPanel(true, {
      [`GET ${BASE}`]: [
        json(list([ANN, BOB])),
        json(list([{ ...ANN, amount: null, amountMicros: null, left: null, leftMicros: null, usedPercent: null }, BOB])),
      ],
      [`DELETE ${BASE}/ann`]: json({}),
    });
    const row = (await screen.findAllByTestId('allotment-row'))[0]!;
    fireEvent.click(within(row).getByTestId('allotment-remove'));
    fireEvent.click(await within(row).findByTestId('allotment-remove-confirm'));
    await waitFor(() => expect(sent.some((r) => r.method === 'DELETE' && r.path === `${BASE}/ann`)).toBe(true));
    await waitFor(() =>
      expect(within(screen.getAllByTestId('allotment-row')[0]!).getByTestId('allotment-cell-amount').textContent).toBe('No allotment'),
    );
  });

  it('shows a member only their own allotment and what is left, in both languages', async () => {
    renderPanel(false, { [`GET ${BASE}`]: json(list([ANN])) });
    const own = await screen.findByTestId('allotment-own');
    expect(own.textContent).toBe('Your allotment: 2.5 points of 50 points left this month (47.5 points spent).');
    expect(screen.queryByTestId('allotments-table')).toBeNull();
    expect(screen.queryByTestId('allotment-edit')).toBeNull();
    await i18n.changeLanguage('zh-CN');
    await waitFor(() => expect(screen.getByTestId('allotment-own').textContent).toContain('2.5 points / 50 points'));
  });

  it('names a custom period by its days where an amount is per period, and as the period where it is this one', async () => {
    const custom = list([ANN]);
    custom.budget = { ...custom.budget!, period: 'custom', periodDays: 90 };
    renderPanel(false, { [`GET ${BASE}`]: json(custom) });
    expect((await screen.findByTestId('allotment-own')).textContent).toBe(
      'Your allotment: 2.5 points of 50 points left this period (47.5 points spent).',
    );
  });

  it('shows an admin the budget of a custom period per its days', async () => {
    const custom = list([ANN]);
    custom.budget = { ...custom.budget!, period: 'custom', periodDays: 90 };
    renderPanel(true, { [`GET ${BASE}`]: json(custom) });
    expect((await screen.findByTestId('allotments-total')).textContent).toContain('per 90 days');
  });

  it('tells a member whose allotment is spent that new jobs wait', async () => {
    renderPanel(false, { [`GET ${BASE}`]: json(list([{ ...ANN, spentMicros: 51_000_000, leftMicros: -1_000_000, usedPercent: 102 }])) });
    const own = await screen.findByTestId('allotment-own');
    expect(own.dataset.over).toBe('true');
    expect(own.textContent).toContain('your new jobs wait');
  });

  it('tells a member without an allotment that they spend within the budget', async () => {
    renderPanel(false, { [`GET ${BASE}`]: json(list([BOB])) });
    expect((await screen.findByTestId('allotment-own')).textContent).toBe("You have no allotment: you spend within the account's budget.");
  });

  it('says when the account has no budget', async () => {
    renderPanel(true, { [`GET ${BASE}`]: json(list([], false)) });
    expect((await screen.findByTestId('empty-state')).textContent).toContain('a platform admin sets the account');
  });

  it('shows an error with a retry when the allotments cannot be read', async () => {
    renderPanel(true, { [`GET ${BASE}`]: [problem(503, 'Unavailable', 'try again'), json(list([ANN]))] });
    expect(await screen.findByText('Could not load the allotments.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /retry|try again/i }));
    expect(await screen.findAllByTestId('allotment-row')).toHaveLength(1);
  });

  it('shows an admin an empty state when the account has no members', async () => {
    renderPanel(true, { [`GET ${BASE}`]: json(list([])) });
    expect((await screen.findByTestId('empty-state')).textContent).toContain('The account has no members.');
  });
});
