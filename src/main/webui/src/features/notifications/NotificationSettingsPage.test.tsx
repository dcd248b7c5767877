import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18n from '../../i18n';
import type { NotificationChannel, NotificationPreferences } from '../../api/types';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { NotificationSettingsPage } from './NotificationSettingsPage';
import { changesBetween, gridOf, validWaiting } from './preferences';

const CHANNELS: NotificationChannel[] = ['in-app', 'email', 'webhook'];
const KINDS = ['job.started', 'job.failed'];

function prefs(over: Partial<NotificationPreferences> = {}): NotificationPreferences {
  return {
    kinds: KINDS,
    channels: CHANNELS,
    preferences: KINDS.flatMap((kind) =>
      CHANNELS.map((channel) => {
        const on = channel !== 'email' || kind === 'job.failed';
        return { kind, channel, enabled: on, byDefault: on };
      }),
    ),
    waitingThresholdMinutes: 30,
    mailEnabled: true,
    ...over,
  };
}

/** What the webhooks section asks for: the profile (administered accounts) and one's webhooks, none here. */
const webhookRoutes = {
  'GET /api/v1/me': json({
    id: 'u1',
    username: 'ria',
    slug: 'ria',
    uid: 2001,
    displayName: 'Ria',
    email: null,
    role: 'user',
    defaultAccount: 'ria',
    accounts: [],
  }),
  'GET /api/v1/me/webhooks': json({ items: [], formats: ['generic', 'slack', 'feishu', 'dingtalk'], kinds: KINDS }),
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <NotificationSettingsPage /> }], { initialEntries: ['/notifications'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('preferences helpers', () => {
  it('sends only the cells the user changed', () => {
    const saved = gridOf(prefs().preferences);
    expect(changesBetween(saved, { ...saved, 'job.started|in-app': false })).toEqual([
      { kind: 'job.started', channel: 'in-app', enabled: false },
    ]);
    expect(changesBetween(saved, saved)).toEqual([]);
  });
  it('takes whole minutes from 1 to a week', () => {
    expect(validWaiting('45')).toBe(45);
    expect(validWaiting('0')).toBeNull();
    expect(validWaiting('10081')).toBeNull();
    expect(validWaiting('1.5')).toBeNull();
    expect(validWaiting('')).toBeNull();
  });
});

describe('NotificationSettingsPage', () => {
  it('shows progress, then the grid, and saves what changed with the threshold in minutes', async () => {
    const sent = mockFetch({
      ...webhookRoutes,
      'GET /api/v1/me/notification-preferences': json(prefs()),
      'PUT /api/v1/me/notification-preferences': (req) => {
        const body = req.body as { waitingThresholdMinutes: number };
        return json(prefs({ waitingThresholdMinutes: body.waitingThresholdMinutes }));
      },
    });
    renderPage();
    expect(within(screen.getByTestId('preferences')).getByRole('status')).toBeTruthy();
    const started = (await screen.findByTestId('pref-job.started-in-app')) as HTMLInputElement;
    expect(started.checked).toBe(true);
    expect((screen.getByTestId('pref-job.started-email') as HTMLInputElement).checked).toBe(false);
    expect((screen.getByTestId('pref-job.failed-email') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Job failed (exit code and reason)')).toBeTruthy();
    expect(screen.getAllByText('minutes').length).toBeGreaterThan(0);
    fireEvent.click(started);
    fireEvent.change(screen.getByTestId('pref-waiting'), { target: { value: '90' } });
    fireEvent.click(screen.getByTestId('prefs-save'));
    await screen.findByTestId('prefs-saved');
    const put = sent.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      preferences: [{ kind: 'job.started', channel: 'in-app', enabled: false }],
      waitingThresholdMinutes: 90,
    });
  });

  it('refuses a threshold outside its range before sending anything', async () => {
    const sent = mockFetch({ ...webhookRoutes, 'GET /api/v1/me/notification-preferences': json(prefs()) });
    renderPage();
    fireEvent.change(await screen.findByTestId('pref-waiting'), { target: { value: '0' } });
    expect((screen.getByTestId('prefs-save') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Whole minutes from 1 to 10080.')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('says when the server sends no mail, in Chinese too', async () => {
    await i18n.changeLanguage('zh-CN');
    mockFetch({ ...webhookRoutes, 'GET /api/v1/me/notification-preferences': json(prefs({ mailEnabled: false })) });
    renderPage();
    expect((await screen.findByTestId('mail-off')).textContent).toContain('不发送电子邮件');
    expect(screen.getByText('作业失败（退出码与原因）')).toBeTruthy();
  });

  it('shows the error when the preferences cannot be loaded', async () => {
    mockFetch({
      ...webhookRoutes,
      'GET /api/v1/me/notification-preferences': problem(500, 'Internal', 'boom'),
    });
    renderPage();
    await waitFor(() => expect(screen.getByTestId('error-state').textContent).toContain('Could not load your notification settings.'));
  });
});
