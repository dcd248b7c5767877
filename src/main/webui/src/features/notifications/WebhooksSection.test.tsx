import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from '../../i18n';
import type { Me, Webhook, WebhookDelivery, WebhookList } from '../../api/types';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { WebhooksSection } from './WebhooksSection';
import { deliveryTone, plausibleUrl } from './webhooks';

const KINDS = ['job.started', 'job.failed'];

function me(admin = false): Me {
  return {
    id: 'u1',
    username: 'ria',
    slug: 'ria',
    uid: 2001,
    displayName: 'Ria',
    email: null,
    role: 'user',
    defaultAccount: 'ria',
    accounts: admin
      ? [
          { slug: 'lab', name: 'Vision Lab', kind: 'team', role: 'admin', fileAccess: 'rw', expiresAt: null },
          { slug: 'other', name: 'Other', kind: 'team', role: 'member', fileAccess: 'rw', expiresAt: null },
        ]
      : [],
  };
}

function hook(over: Partial<Webhook> = {}): Webhook {
  return {
    id: 'wh_abc',
    name: 'team chat',
    url: 'https://hooks.slack.com/services/…',
    format: 'slack',
    kinds: KINDS,
    createdAt: '2026-12-02T10:00:00Z',
    lastState: null,
    lastStatusCode: null,
    lastAttemptAt: null,
    ...over,
  };
}

function listing(items: Webhook[]): WebhookList {
  return { items, formats: ['generic', 'slack', 'feishu', 'dingtalk'], kinds: KINDS };
}

function delivery(over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 7,
    kind: 'webhook.test',
    message: 'A test from Crater',
    state: 'sent',
    attempts: 2,
    createdAt: '2026-12-02T10:01:00Z',
    sentAt: '2026-12-02T10:01:02Z',
    nextAttemptAt: null,
    lastError: null,
    tries: [
      { attempt: 2, statusCode: 200, latencyMs: 35, error: null, at: '2026-12-02T10:01:02Z' },
      { attempt: 1, statusCode: 500, latencyMs: 12, error: 'the receiver answered 500', at: '2026-12-02T10:01:00Z' },
    ],
    ...over,
  };
}

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <WebhooksSection />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('webhook helpers', () => {
  it('gives each delivery state its tone', () => {
    expect(deliveryTone('sent')).toBe('success');
    expect(deliveryTone('failed')).toBe('danger');
    expect(deliveryTone('pending')).toBe('warning');
    expect(deliveryTone(null)).toBe('neutral');
  });
  it('sends only http and https URLs with a host', () => {
    expect(plausibleUrl('https://hooks.slack.com/services/x')).toBe(true);
    expect(plausibleUrl('ftp://x.example.org/')).toBe(false);
    expect(plausibleUrl('not a url')).toBe(false);
  });
});

describe('WebhooksSection', () => {
  it('shows progress, then says there are none, adds one with its format and shows the secret once', async () => {
    const sent = mockFetch({
      'GET /api/v1/me': json(me()),
      'GET /api/v1/me/webhooks': [json(listing([])), json(listing([hook()]))],
      'POST /api/v1/me/webhooks': json({ webhook: hook(), secret: 'whsec_once' }, 201),
    });
    renderSection();
    expect(screen.getAllByRole('status').length).toBeGreaterThan(0);
    expect(await screen.findByText('No webhooks yet.')).toBeTruthy();
    expect(screen.queryByTestId('webhook-owner')).toBeNull();
    fireEvent.change(screen.getByTestId('webhook-name'), { target: { value: 'team chat' } });
    fireEvent.change(screen.getByTestId('webhook-url'), { target: { value: 'https://hooks.slack.com/services/T/B/X' } });
    fireEvent.change(screen.getByTestId('webhook-format'), { target: { value: 'slack' } });
    fireEvent.click(screen.getByTestId('webhook-add'));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_once');
    expect(screen.getByText(/shown this once and never again/)).toBeTruthy();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'team chat',
      url: 'https://hooks.slack.com/services/T/B/X',
      format: 'slack',
    });
    const row = await screen.findByTestId('webhook-row');
    expect(within(row).getByText('Slack-compatible')).toBeTruthy();
    expect(within(row).getByText('No delivery yet')).toBeTruthy();
  });

  it('refuses a URL that is not http(s) before sending it', async () => {
    const sent = mockFetch({ 'GET /api/v1/me': json(me()), 'GET /api/v1/me/webhooks': json(listing([])) });
    renderSection();
    fireEvent.change(await screen.findByTestId('webhook-url'), { target: { value: 'ftp://files.example.org/h' } });
    expect(screen.getByText('An http or https URL with a host.')).toBeTruthy();
    expect((screen.getByTestId('webhook-add') as HTMLButtonElement).disabled).toBe(true);
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('sends a test and shows the delivery log with attempts, HTTP status and duration', async () => {
    const sent = mockFetch({
      'GET /api/v1/me': json(me()),
      'GET /api/v1/me/webhooks': json(listing([hook({ lastState: 'sent', lastStatusCode: 200, lastAttemptAt: '2026-12-02T10:01:02Z' })])),
      'POST /api/v1/me/webhooks/wh_abc/test': json(delivery({ state: 'pending', attempts: 0, tries: [] }), 202),
      'GET /api/v1/me/webhooks/wh_abc/deliveries': json({ items: [delivery()] }),
    });
    renderSection();
    expect((await screen.findByTestId('webhook-row')).textContent).toContain('HTTP 200');
    fireEvent.click(screen.getByTestId('webhook-test'));
    const log = await screen.findByTestId('webhook-log-row');
    expect(log.getAttribute('data-state')).toBe('sent');
    expect(within(log).getByText('Delivered')).toBeTruthy();
    expect(within(log).getByTestId('webhook-log-status').textContent).toBe('200');
    expect(within(log).getByText('35 ms')).toBeTruthy();
    expect(within(log).getByText('2')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST' && r.path === '/api/v1/me/webhooks/wh_abc/test')).toBe(true);
  });

  it("manages an administered account's webhooks, in Chinese too, and deletes after confirming", async () => {
    await i18n.changeLanguage('zh-CN');
    const sent = mockFetch({
      'GET /api/v1/me': json(me(true)),
      'GET /api/v1/me/webhooks': json(listing([])),
      'GET /api/v1/accounts/lab/webhooks': json(listing([hook({ format: 'feishu' })])),
      'DELETE /api/v1/accounts/lab/webhooks/wh_abc': { status: 204 },
    });
    renderSection();
    const owner = (await screen.findByTestId('webhook-owner')) as HTMLSelectElement;
    expect(
      within(owner)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['我的', '账户 Vision Lab']);
    fireEvent.change(owner, { target: { value: 'lab' } });
    const row = await screen.findByTestId('webhook-row');
    expect(within(row).getByText('飞书')).toBeTruthy();
    fireEvent.click(within(row).getByTestId('webhook-delete'));
    fireEvent.click(within(row).getByTestId('webhook-delete-confirm'));
    await waitFor(() => expect(sent.some((r) => r.method === 'DELETE' && r.path === '/api/v1/accounts/lab/webhooks/wh_abc')).toBe(true));
  });

  it('shows the error when the webhooks cannot be loaded', async () => {
    mockFetch({ 'GET /api/v1/me': json(me()), 'GET /api/v1/me/webhooks': problem(500, 'Internal', 'boom') });
    renderSection();
    await waitFor(() => expect(screen.getByTestId('error-state').textContent).toContain('The webhooks could not be loaded.'));
  });
});
