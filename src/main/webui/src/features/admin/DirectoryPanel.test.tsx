import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DirectoryStatus, DirectorySyncResult } from '../../api/types';
import i18n from '../../i18n';
import { json, mockFetch } from '../../test/mockFetch';
import { DirectoryPanel } from './DirectoryPanel';
import { outcomeTone } from './directoryOutcome';

const RESULT: DirectorySyncResult = {
  provider: 'ldap:corp',
  trigger: 'schedule',
  outcome: 'partial',
  startedAt: '2026-12-01T10:00:00Z',
  finishedAt: '2026-12-01T10:00:02Z',
  counts: { usersChecked: 40, usersLinked: 3, usersDisabled: 1, membershipsAdded: 5, membershipsRemoved: 2, membershipsChanged: 0 },
  errors: ["a group mapping names account 'ghost', which is not an active team account; its mapping is left out"],
};

const STATUS: DirectoryStatus = {
  enabled: true,
  provider: 'ldap:corp',
  url: 'ldaps://ldap.example.org',
  mode: 'search',
  startTls: false,
  syncIntervalSeconds: 900,
  groupMappings: 2,
  lastSync: RESULT,
};

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <DirectoryPanel />
    </QueryClientProvider>,
  );
}

describe('DirectoryPanel', () => {
  it('shows the directory, its last sync with every count and its problems, and syncs on request', async () => {
    const after: DirectorySyncResult = {
      ...RESULT,
      trigger: 'admin',
      outcome: 'ok',
      errors: [],
      counts: { ...RESULT.counts, usersDisabled: 0 },
    };
    let synced = false;
    const sent = mockFetch({
      'GET /api/v1/directory': () => json(synced ? { ...STATUS, lastSync: after } : STATUS),
      'POST /api/v1/directory/sync': () => {
        synced = true;
        return json(after);
      },
    });
    renderPanel();
    await waitFor(() => expect(screen.getByTestId('directory-panel')).toBeTruthy());
    expect(screen.getByTestId('directory-where').textContent).toBe('ldap:corp at ldaps://ldap.example.org, bind and search');
    expect(screen.getByText('Synced every 15m by the leader; 2 group mappings.')).toBeTruthy();
    const last = screen.getByTestId('directory-last-sync');
    expect(within(last).getByTestId('status-badge').getAttribute('data-status')).toBe('partial');
    expect(within(screen.getByTestId('directory-count-usersDisabled')).getByText('1')).toBeTruthy();
    expect(within(screen.getByTestId('directory-count-usersChecked')).getByText('40')).toBeTruthy();
    expect(screen.getByTestId('directory-sync-errors').textContent).toContain("'ghost'");

    fireEvent.click(screen.getByTestId('directory-sync'));
    await waitFor(() => expect(screen.queryByTestId('directory-sync-errors')).toBeNull());
    expect(within(screen.getByTestId('directory-last-sync')).getByTestId('status-badge').getAttribute('data-status')).toBe('ok');
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/v1/directory/sync']);
  });

  it('says when no directory is configured', async () => {
    mockFetch({ 'GET /api/v1/directory': () => json({ ...STATUS, enabled: false, url: null, lastSync: null }) });
    renderPanel();
    await waitFor(() => expect(screen.getByTestId('directory-off')).toBeTruthy());
    expect(screen.queryByTestId('directory-sync')).toBeNull();
  });

  it('shows a refused sync and a failed load', async () => {
    mockFetch({
      'GET /api/v1/directory': () => json({ ...STATUS, lastSync: null }),
      'POST /api/v1/directory/sync': () =>
        json(
          { type: 'about:blank', title: 'Conflict', status: 409, code: 'DirectoryNotConfigured', detail: 'no directory is configured' },
          409,
        ),
    });
    renderPanel();
    await waitFor(() => expect(screen.getByText('Not synced yet.')).toBeTruthy());
    fireEvent.click(screen.getByTestId('directory-sync'));
    await waitFor(() => expect(screen.getByTestId('form-error').getAttribute('data-code')).toBe('DirectoryNotConfigured'));
  });

  it('renders in Chinese too', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      mockFetch({ 'GET /api/v1/directory': () => json(STATUS) });
      renderPanel();
      await waitFor(() => expect(screen.getByText('立即同步')).toBeTruthy());
      expect(screen.getByText('由主副本每 15m 同步一次；2 条组映射。')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('maps outcomes to badge tones', () => {
    expect(outcomeTone('ok')).toBe('success');
    expect(outcomeTone('partial')).toBe('warning');
    expect(outcomeTone('failed')).toBe('danger');
  });
});
