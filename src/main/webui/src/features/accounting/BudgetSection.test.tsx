import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { BudgetView, LedgerEntry, StatementSummary, UsageReport } from '../../api/types';
import { json, mockFetch, problem, type Answer } from '../../test/mockFetch';
import { BudgetSection } from './BudgetSection';

const BASE = '/api/v1/accounting/accounts/vision-lab';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const NO_BUDGET: BudgetView = {
  account: 'vision-lab',
  currency: 'points',
  budget: null,
  balance: '-7.68',
  balanceMicros: -7_680_000,
  spent: '7.68',
  spentMicros: 7_680_000,
  usedPercent: null,
  burn: { perDay: '7.68', perDayMicros: 7_680_000, runsOutAt: null },
  holding: [
    { resource: 'nvidia-a100-80gb', milli: 2000, pricePerHour: '2.5', costPerHourMicros: 5_000_000 },
    { resource: 'cpu', milli: 2000, pricePerHour: '0.04', costPerHourMicros: 80_000 },
    { resource: 'memory', milli: 8 * 1024 ** 3 * 1000, pricePerHour: '0.005', costPerHourMicros: 40_000 },
  ],
};

const WITH_BUDGET: BudgetView = {
  ...NO_BUDGET,
  budget: {
    amount: '21',
    amountMicros: 21_000_000,
    period: 'month',
    periodDays: null,
    policy: 'hard',
    renewal: 'reset',
    periodStart: '2026-11-01T00:00:00Z',
    periodEnd: '2026-12-01T00:00:00Z',
  },
  balance: '13.32',
  balanceMicros: 13_320_000,
  usedPercent: 36,
  burn: { perDay: '7.68', perDayMicros: 7_680_000, runsOutAt: '2026-11-20T17:37:30Z' },
};

const NOT_MEASURED = { measured: null, used: null, unknown: null, efficiency: null, idleCost: null, idleCostMicros: null };

const USAGE: UsageReport = {
  account: 'vision-lab',
  from: '2026-11-01T00:00:00Z',
  to: '2026-11-20T10:00:00Z',
  by: 'day',
  currency: 'points',
  rows: [
    { key: '2026-11-02', resource: 'cpu', unit: 'core-hours', held: 3, cost: '0.12', costMicros: 120_000, ...NOT_MEASURED },
    {
      key: '2026-11-02',
      resource: 'nvidia-a100-80gb',
      unit: 'device-hours',
      held: 3,
      cost: '7.5',
      costMicros: 7_500_000,
      measured: 2.5,
      used: 1.5,
      unknown: 0.5,
      efficiency: 0.6,
      idleCost: '2.5',
      idleCostMicros: 2_500_000,
    },
    { key: '2026-11-19', resource: 'memory', unit: 'GiB-hours', held: 12, cost: '0.06', costMicros: 60_000, ...NOT_MEASURED },
  ],
  total: '7.68',
  totalMicros: 7_680_000,
  accelerators: { held: 3, measured: 2.5, used: 1.5, efficiency: 0.6, idleCost: '2.5', idleCostMicros: 2_500_000 },
  waits: [{ key: 'alice', jobs: 3, meanSeconds: 90, p90Seconds: 300 }],
};

const CHARGE: LedgerEntry = {
  id: 41,
  kind: 'charge',
  amount: '-7.68',
  amountMicros: -7_680_000,
  balanceAfter: '-7.68',
  balanceAfterMicros: -7_680_000,
  job: 'j-bert',
  user: 'alice',
  windowStart: '2026-11-02T09:00:00Z',
  windowEnd: '2026-11-02T10:30:00Z',
  note: 'job j-bert',
  actor: 'crater',
  at: '2026-11-02T10:30:05Z',
};

const STATEMENT: StatementSummary = {
  period: '2026-10',
  from: '2026-10-01T00:00:00Z',
  to: '2026-11-01T00:00:00Z',
  currency: 'points',
  opening: '0',
  issued: '21',
  charged: '-7.68',
  adjusted: '0',
  expired: '0',
  closing: '13.32',
  openingMicros: 0,
  closingMicros: 13_320_000,
  closedAt: '2026-11-01T00:15:00Z',
};

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

function routes(budget: Answer | Answer[], extra: Record<string, Answer | Answer[]> = {}) {
  return mockFetch({
    [`GET ${BASE}/budget`]: budget,
    [`GET ${BASE}/ledger`]: json({ items: [CHARGE] }),
    'GET /api/v1/accounting/usage': json(USAGE),
    'GET /api/v1/accelerator-models': json(MODELS),
    [`GET ${BASE}/statements`]: json({ items: [STATEMENT] }),
    [`GET ${BASE}/budget/allotments`]: json({
      account: 'vision-lab',
      currency: 'points',
      budget: null,
      allotted: '0',
      allottedMicros: 0,
      items: [],
    }),
    ...extra,
  });
}

function renderSection(platformAdmin = false, accountAdmin = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <BudgetSection slug="vision-lab" platformAdmin={platformAdmin} accountAdmin={accountAdmin} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the budget and usage section', () => {
  it('shows a member the balance, what running jobs cost, the month per day and their ledger, without admin forms', async () => {
    const sent = routes(json(NO_BUDGET));
    renderSection();
    expect(screen.getByRole('status')).toBeTruthy();
    const balance = await screen.findByTestId('budget-balance');
    expect(balance.textContent).toBe('-7.68 points');
    expect(balance.className).toContain('text-rose-700');
    expect(screen.getByText('Spent beyond what was issued.')).toBeTruthy();
    expect(screen.getByTestId('budget-none').textContent).toContain('Jobs are charged anyway');
    expect(screen.getByTestId('budget-burn').textContent).toBe('The last 24 h cost 7.68 points.');

    const rows = screen.getAllByTestId('holding-row');
    expect(rows.map((r) => r.dataset.resource)).toEqual(['nvidia-a100-80gb', 'cpu', 'memory']);
    await waitFor(() => expect(within(rows[0]!).getByText('NVIDIA A100 80GB')).toBeTruthy());
    expect(rows[0]!.textContent).toContain('2 devices');
    expect(rows[0]!.textContent).toContain('2.5 points per device-hour');
    expect(rows[0]!.textContent).toContain('5 points');
    expect(rows[1]!.textContent).toContain('0.04 points per core-hour');
    expect(rows[2]!.textContent).toContain('8 GiB');
    expect(rows[2]!.textContent).toContain('0.005 points per GiB-hour');
    expect(screen.getByTestId('holding-total').textContent).toBe('5.12 points per hour');

    // The chart: one bar per day that cost something, summed over resources; the scale is in the currency.
    const bars = await screen.findAllByTestId('daily-cost-bar');
    expect(bars.map((b) => [b.dataset.day, b.dataset.cost])).toEqual([
      ['2026-11-02', '7620000'],
      ['2026-11-19', '60000'],
    ]);
    expect(screen.getAllByTestId('daily-cost-tick').map((t) => t.textContent)).toEqual(['0 points', '5 points', '10 points']);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Cost per day in 2026-11: 7.68 points in all over 2 charged days, at most 7.62 points a day',
    );
    const table = screen.getByTestId('daily-cost-table');
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['DayCost (points)', '2026-11-027.62', '2026-11-190.06']);
    expect(screen.getByTestId('month-total').textContent).toBe('This month so far: 7.68 points');
    expect(screen.getByText("Only your own jobs' usage is shown.")).toBeTruthy();

    // GPU-hours held beside those used, per model, with the efficiency and what the idle held GPUs cost.
    expect((await screen.findByTestId('gpu-use-summary')).textContent).toBe(
      'Efficiency 60 %: 3 GPU-hours held, 1.5 used, 0.5 without utilisation samples. Held GPUs that sat idle cost 2.5 points.',
    );
    const use = screen.getAllByTestId('gpu-use-row');
    expect(use.map((r) => r.dataset.resource)).toEqual(['nvidia-a100-80gb']);
    expect(within(use[0]!).getByTestId('gpu-use-efficiency').textContent).toBe('60 %');
    expect(use[0]!.textContent).toContain('NVIDIA A100 80GB');
    expect(use[0]!.textContent).toContain('2.5 points');
    expect(within(use[0]!).getByTestId('gpu-use-bar').getAttribute('title')).toBe(
      'NVIDIA A100 80GB: 50 % of the held time used, 33.3 % idle, 16.7 % without samples',
    );

    const csv = screen.getByTestId('usage-csv');
    expect(csv.getAttribute('href')).toBe('/api/v1/accounting/usage?account=vision-lab&by=user&format=csv');
    expect(screen.getByTestId('budget-prices-link').getAttribute('href')).toBe('/prices');

    const entry = (await screen.findAllByTestId('ledger-row'))[0]!;
    expect(entry.dataset.kind).toBe('charge');
    expect(within(entry).getByTestId('ledger-amount').textContent).toBe('-7.68');
    expect(within(entry).getByRole('link', { name: 'j-bert' }).getAttribute('href')).toBe('/jobs/j-bert');
    expect(entry.textContent).toContain('alice');
    expect(entry.textContent).toContain('Charge');

    expect(screen.queryByTestId('budget-set')).toBeNull();
    expect(screen.queryByTestId('budget-top-up')).toBeNull();
    expect(screen.queryByTestId('statements')).toBeNull();
    expect(sent.some((r) => r.path.endsWith('/statements'))).toBe(false);
    const usage = sent.find((r) => r.path === '/api/v1/accounting/usage')!;
    expect(Object.fromEntries(usage.query)).toEqual({ account: 'vision-lab', by: 'day' });
    expect(sent.find((r) => r.path.endsWith('/ledger'))!.query.get('limit')).toBe('50');

    // How long the month's admitted jobs waited, from the report by user.
    const wait = await screen.findByTestId('waits-row');
    expect(wait.dataset.member).toBe('alice');
    expect(wait.textContent).toContain('3');
    expect(wait.textContent).toContain('1m 30s');
    expect(wait.textContent).toContain('5m');
    expect(sent.some((r) => r.path === '/api/v1/accounting/usage' && r.query.get('by') === 'user')).toBe(true);
  });

  it('shows an earlier month when one is picked, with its span in every report request and its name in the titles', async () => {
    const sent = routes(json(WITH_BUDGET));
    renderSection(false, true);
    const picker = (await screen.findByTestId('report-month')) as HTMLSelectElement;
    expect(picker.value).toBe('');
    const earlier = picker.options[2]!.value;
    fireEvent.change(picker, { target: { value: earlier } });
    const [y, m] = earlier.split('-').map(Number);
    const name = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(y!, m! - 1, 1)),
    );
    expect(await screen.findByText(`Cost per day in ${name}`)).toBeTruthy();
    expect(screen.getByText(`GPU-hours held and used in ${name}`)).toBeTruthy();
    expect(screen.getByText(`Queue waits in ${name}`)).toBeTruthy();
    await waitFor(() =>
      expect(sent.filter((r) => r.path === '/api/v1/accounting/usage' && r.query.get('from') === `${earlier}-01`)).toHaveLength(2),
    );
    const next = new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 10);
    expect(sent.filter((r) => r.query.get('from') === `${earlier}-01`).every((r) => r.query.get('to') === next)).toBe(true);
    expect(screen.getByTestId('usage-csv').getAttribute('href')).toBe(
      `/api/v1/accounting/usage?account=vision-lab&from=${earlier}-01&to=${next}&by=user&format=csv`,
    );
  });

  it('shows the budget, the share used and when the balance runs out', async () => {
    routes(json(WITH_BUDGET));
    renderSection(false, true);
    const info = await screen.findByTestId('budget-info');
    expect(info.textContent).toContain('21 points per month');
    expect(info.textContent).toContain('Policy: Hard. Renewal: Reset.');
    expect(screen.getByTestId('budget-balance').className).not.toContain('text-rose-700');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('36');
    expect(screen.getByTestId('budget-used').textContent).toBe("36 % of this month's budget used");
    expect(screen.getByTestId('budget-burn').textContent).toMatch(
      /^The last 24 h cost 7\.68 points; at that rate the balance runs out on .*2026/,
    );
    expect(screen.queryByText("Only your own jobs' usage is shown.")).toBeNull();

    // An account admin sees the monthly statements, each with its lines as CSV.
    const statement = await screen.findByTestId('statement-row');
    expect(statement.dataset.period).toBe('2026-10');
    expect(within(statement).getByTestId('statement-charged').textContent).toBe('-7.68 points');
    expect(within(statement).getByTestId('statement-closing').textContent).toBe('13.32 points');
    expect(within(statement).getByTestId('statement-csv').getAttribute('href')).toBe(
      '/api/v1/accounting/accounts/vision-lab/statements/2026-10?format=csv',
    );
  });

  it('tells an account admin when no month has a statement yet', async () => {
    routes(json(WITH_BUDGET), { [`GET ${BASE}/statements`]: json({ items: [] }) });
    renderSection(false, true);
    expect(
      await screen.findByText(
        'No statement yet: a month (and a week, for a weekly budget) gets one once it is over, if anything was held or posted in it.',
      ),
    ).toBeTruthy();
  });

  it('says when nothing was spent, nothing is held, nothing was charged and the ledger is empty', async () => {
    routes(json({ ...NO_BUDGET, balance: '0', balanceMicros: 0, burn: { perDay: '0', perDayMicros: 0, runsOutAt: null }, holding: [] }), {
      [`GET ${BASE}/ledger`]: json({ items: [] }),
      'GET /api/v1/accounting/usage': json({
        ...USAGE,
        rows: [],
        total: '0',
        totalMicros: 0,
        accelerators: { held: 0, measured: 0, used: 0, efficiency: null, idleCost: '0', idleCostMicros: 0 },
        waits: [],
      }),
    });
    renderSection();
    expect((await screen.findByTestId('budget-burn')).textContent).toBe('Nothing spent in the last 24 h.');
    expect(screen.getByTestId('holding-empty')).toBeTruthy();
    expect(await screen.findByText('Nothing charged this month yet.')).toBeTruthy();
    expect(await screen.findByText('No ledger entries yet.')).toBeTruthy();
    expect(screen.queryByTestId('daily-cost-bar')).toBeNull();
    expect(await screen.findByText('No GPUs held this month yet.')).toBeTruthy();
    expect(await screen.findByText('No job was admitted this month yet.')).toBeTruthy();
  });

  it('shows load failures with a retry', async () => {
    routes([problem(500, 'ServerError', 'the database is down'), json(NO_BUDGET)], {
      'GET /api/v1/accounting/usage': problem(400, 'InvalidReport', "the report's parameters are not valid"),
    });
    renderSection(true);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain("Could not load the account's budget.");
    expect(error.textContent).toContain('the database is down');
    expect(screen.queryByTestId('budget-set')).toBeNull();
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('budget-balance')).toBeTruthy();
    expect(await screen.findByText("Could not load this month's usage.")).toBeTruthy();
    expect(await screen.findByText("Could not load this month's GPU use.")).toBeTruthy();
    expect(await screen.findByText("Could not load this month's queue waits.")).toBeTruthy();
  });

  it('is left out for a caller who is not a member', async () => {
    routes(problem(403, 'NotAMember', "you are not a member of account 'vision-lab'"));
    renderSection();
    await waitFor(() => expect(screen.queryByTestId('budget-section')).toBeNull());
  });
});

describe('the budget forms of platform admins', () => {
  it('shows the server field errors under their fields, then saves the budget', async () => {
    const sent = routes(json(NO_BUDGET), {
      [`PUT ${BASE}/budget`]: [
        problem(400, 'InvalidBudget', 'the budget is not valid', [
          { field: 'amount', message: 'too large: at most 1000000000000' },
          { field: 'policy', message: 'one of hard, soft or stop' },
        ]),
        json(WITH_BUDGET),
      ],
    });
    renderSection(true);
    fireEvent.click(await screen.findByTestId('budget-set'));
    const dialog = within(screen.getByTestId('budget-dialog'));
    const amount = dialog.getByTestId('budget-amount') as HTMLInputElement;
    fireEvent.change(amount, { target: { value: '21,5' } });
    expect(dialog.getByTestId('budget-amount-note').textContent).toBe('= 21.5 points');
    expect(dialog.getByText(/waits until the budget is topped up/)).toBeTruthy();
    fireEvent.click(dialog.getByTestId('budget-policy-stop'));
    fireEvent.click(dialog.getByTestId('budget-period-week'));
    fireEvent.click(dialog.getByTestId('budget-renewal-carry'));
    fireEvent.click(dialog.getByTestId('budget-save'));

    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.getByTestId('budget-amount-note').textContent).toBe('too large: at most 1000000000000');
    expect(within(dialog.getByTestId('budget-policy').parentElement!).getByText('one of hard, soft or stop')).toBeTruthy();
    expect(dialog.getByTestId('form-error').dataset.code).toBe('InvalidBudget');
    const put = sent.filter((r) => r.method === 'PUT');
    expect(put[0]!.body).toEqual({ amount: '21.5', period: 'week', policy: 'stop', renewal: 'carry' });
    expect(put[0]!.headers['X-Requested-With']).toBe('crater');

    fireEvent.click(dialog.getByTestId('budget-save'));
    await waitFor(() => expect(screen.queryByTestId('budget-dialog')).toBeNull());
    expect((await screen.findByTestId('budget-info')).textContent).toContain('21 points per month');
  });

  it('sets a custom period of whole days, checks the length first and shows the budget per its days', async () => {
    const custom: BudgetView = {
      ...WITH_BUDGET,
      budget: { ...WITH_BUDGET.budget!, period: 'custom', periodDays: 90, periodEnd: '2027-03-01T00:00:00Z' },
      usedPercent: 12,
    };
    const sent = routes(json(NO_BUDGET), { [`PUT ${BASE}/budget`]: json(custom) });
    renderSection(true);
    fireEvent.click(await screen.findByTestId('budget-set'));
    const dialog = within(screen.getByTestId('budget-dialog'));
    fireEvent.change(dialog.getByTestId('budget-amount'), { target: { value: '21' } });
    expect(dialog.queryByTestId('budget-days')).toBeNull();
    fireEvent.click(dialog.getByTestId('budget-period-custom'));
    fireEvent.change(dialog.getByTestId('budget-days'), { target: { value: '12h' } });
    fireEvent.click(dialog.getByTestId('budget-save'));
    expect(dialog.getByText('a whole number of days, such as 30 or 90')).toBeTruthy();
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);

    fireEvent.change(dialog.getByTestId('budget-days'), { target: { value: '90' } });
    fireEvent.click(dialog.getByTestId('budget-save'));
    await waitFor(() => expect(screen.queryByTestId('budget-dialog')).toBeNull());
    expect(sent.find((r) => r.method === 'PUT')!.body).toEqual({
      amount: '21',
      period: 'custom',
      days: 90,
      policy: 'hard',
      renewal: 'reset',
    });
    expect((await screen.findByTestId('budget-info')).textContent).toContain('21 points per 90 days');
    expect(screen.getByTestId('budget-used').textContent).toBe("12 % of this period's budget used");
  });

  it('checks the amount before sending anything', async () => {
    const sent = routes(json(NO_BUDGET));
    renderSection(true);
    fireEvent.click(await screen.findByTestId('budget-set'));
    const dialog = within(screen.getByTestId('budget-dialog'));
    fireEvent.change(dialog.getByTestId('budget-amount'), { target: { value: '1.1234567' } });
    fireEvent.click(dialog.getByTestId('budget-save'));
    expect(dialog.getByTestId('budget-amount-note').textContent).toBe('At most 6 decimals.');
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('sends a top-up with an Idempotency-Key that a retry of the same form reuses', async () => {
    const topped: BudgetView = { ...NO_BUDGET, balance: '12.32', balanceMicros: 12_320_000 };
    const sent = routes(json(NO_BUDGET), {
      [`POST ${BASE}/budget/top-ups`]: [problem(503, 'Unavailable', 'try again'), problem(503, 'Unavailable', 'try again'), json(topped)],
    });
    renderSection(true);
    fireEvent.click(await screen.findByTestId('budget-top-up'));
    const dialog = within(screen.getByTestId('top-up-dialog'));
    fireEvent.change(dialog.getByTestId('top-up-amount'), { target: { value: '20' } });
    expect(dialog.getByTestId('top-up-amount-note').textContent).toBe('= 20 points');
    fireEvent.change(dialog.getByTestId('top-up-note'), { target: { value: 'grant 42' } });
    fireEvent.click(dialog.getByTestId('top-up-save'));
    await dialog.findByTestId('form-error');
    fireEvent.click(dialog.getByTestId('top-up-save'));
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST')).toHaveLength(2));

    // An edited form is another top-up: a new key.
    fireEvent.change(dialog.getByTestId('top-up-amount'), { target: { value: '20.5' } });
    fireEvent.click(dialog.getByTestId('top-up-save'));
    await waitFor(() => expect(screen.queryByTestId('top-up-dialog')).toBeNull());

    const posts = sent.filter((r) => r.method === 'POST');
    const keys = posts.map((r) => r.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(UUID);
    expect(keys[2]).not.toBe(keys[0]);
    expect(posts[0]!.body).toEqual({ amount: '20', note: 'grant 42' });
    expect(posts[2]!.body).toEqual({ amount: '20.5', note: 'grant 42' });
    expect(screen.getByTestId('budget-balance').textContent).toBe('12.32 points');
  });
});
