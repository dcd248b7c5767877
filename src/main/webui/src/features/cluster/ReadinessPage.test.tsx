import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReadinessReport } from '../../api/types';
import i18n from '../../i18n';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { ReadinessPage } from './ReadinessPage';
import { reasonKey, readinessTone } from './readinessText';

const DEGRADED: ReadinessReport = {
  state: 'degraded',
  checkedAt: '2026-12-02T05:00:00Z',
  checks: [
    { name: 'volcano-crds', state: 'ok', reasons: [] },
    {
      name: 'volcano-scheduler',
      state: 'unknown',
      reasons: [{ code: 'SchedulerConfigUnreadable', args: { source: 'volcano-system/volcano-scheduler-configmap', error: 'forbidden' } }],
    },
    {
      name: 'permissions',
      state: 'degraded',
      reasons: [{ code: 'PermissionDenied', args: { permission: 'create pods/exec in crater-jobs' } }],
    },
    { name: 'job-namespace', state: 'ok', reasons: [] },
    { name: 'storage', state: 'ok', reasons: [] },
    {
      name: 'prometheus',
      state: 'degraded',
      reasons: [{ code: 'PrometheusUnreachable', args: { url: 'http://prom:9090', error: 'ConnectException' } }],
    },
  ],
};

const OK: ReadinessReport = { ...DEGRADED, state: 'ok', checks: DEGRADED.checks.map((c) => ({ ...c, state: 'ok', reasons: [] })) };

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ReadinessPage />
    </QueryClientProvider>,
  );
}

afterEach(() => void i18n.changeLanguage('en'));

describe('ReadinessPage', () => {
  it('shows each check and names every shortfall, then checks again on request', async () => {
    const sent = mockFetch({
      'GET /api/v1/cluster/readiness': json({ report: DEGRADED }),
      'POST /api/v1/cluster/readiness/check': json(OK),
    });
    renderPage();
    expect(screen.getByRole('status').textContent).toContain('Loading the readiness report');
    const report = await screen.findByTestId('readiness-report');
    expect(within(report).getAllByTestId('status-badge')[0]?.getAttribute('data-status')).toBe('degraded');
    const checks = screen.getAllByTestId('readiness-check');
    expect(checks.map((c) => `${c.getAttribute('data-name')}:${c.getAttribute('data-state')}`)).toEqual([
      'volcano-crds:ok',
      'volcano-scheduler:unknown',
      'permissions:degraded',
      'job-namespace:ok',
      'storage:ok',
      'prometheus:degraded',
    ]);
    const reasons = screen.getAllByTestId('readiness-reason').map((r) => r.textContent);
    expect(reasons).toEqual([
      "The scheduler's configuration volcano-system/volcano-scheduler-configmap could not be read (forbidden): its actions and plugins are not checked.",
      'Crater may not create pods/exec in crater-jobs.',
      'Prometheus at http://prom:9090 did not answer a query: ConnectException.',
    ]);

    fireEvent.click(screen.getByTestId('readiness-check-now'));
    await waitFor(() => expect(screen.queryAllByTestId('readiness-reason')).toHaveLength(0));
    expect(within(screen.getByTestId('readiness-report')).getAllByTestId('status-badge')[0]?.getAttribute('data-status')).toBe('ok');
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/v1/cluster/readiness/check']);
  });

  it('says when nothing was checked yet, in Chinese too', async () => {
    await i18n.changeLanguage('zh-CN');
    mockFetch({ 'GET /api/v1/cluster/readiness': json({ report: null }) });
    renderPage();
    const empty = await screen.findByTestId('empty-state');
    expect(empty.textContent).toContain('尚未检查');
    expect(screen.getByTestId('readiness-check-now').textContent).toBe('立即检查');
  });

  it('shows a failed load with a retry, and a refused check', async () => {
    let calls = 0;
    mockFetch({
      'GET /api/v1/cluster/readiness': () =>
        ++calls === 1 ? problem(503, 'Unavailable', 'the database is not reachable') : json({ report: null }),
      'POST /api/v1/cluster/readiness/check': problem(403, 'NotPlatformAdmin', 'only platform administrators read the readiness report'),
    });
    renderPage();
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('Could not load the readiness report.');
    fireEvent.click(within(error).getByText('Retry'));
    await screen.findByTestId('empty-state');
    fireEvent.click(screen.getByTestId('readiness-check-now'));
    await waitFor(() => expect(screen.getByText(/only platform administrators read the readiness report/)).toBeTruthy());
  });
});

describe('readinessText', () => {
  it('tones each state and falls back to the code and its facts for a reason it does not know', () => {
    expect(readinessTone('ok')).toBe('success');
    expect(readinessTone('degraded')).toBe('danger');
    expect(readinessTone('unknown')).toBe('neutral');
    expect(reasonKey({ code: 'NewReason', args: { a: '1', b: 'x' } }).fallback).toBe('NewReason (a=1, b=x)');
    expect(reasonKey({ code: 'PrometheusNotConfigured', args: {} })).toEqual({
      key: 'readiness.reasons.PrometheusNotConfigured',
      args: {},
      fallback: 'PrometheusNotConfigured',
    });
  });
});
