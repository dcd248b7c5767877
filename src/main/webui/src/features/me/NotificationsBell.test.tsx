import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import * as approvalsApi from '../../api/approvals';
import * as meApi from '../../api/me';
import type { Approval, Notification } from '../../api/types';
import { bellBadge } from './notifications';
import { NotificationsBell } from './NotificationsBell';

vi.mock('../../api/approvals', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/approvals')>();
  return { ...actual, listApprovals: vi.fn(() => Promise.resolve({ items: [], nextCursor: null })) };
});
vi.mock('../../api/me', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/me')>();
  return { ...actual, listMyNotifications: vi.fn(), markNotificationRead: vi.fn(() => Promise.resolve()) };
});

const me = vi.mocked(meApi);
const approvals = vi.mocked(approvalsApi);

function notification(id: string, mail: Notification['mail'], readAt: string | null = null): Notification {
  return {
    id,
    kind: 'job.idle-warning',
    message: `Your job ${id} is idle`,
    link: `/jobs/${id}`,
    createdAt: `2026-11-30T10:0${id.length}:00Z`,
    readAt,
    mail,
  };
}

function renderBell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <NotificationsBell /> }]);
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('NotificationsBell', () => {
  it('says which notifications were also mailed and which mails failed', async () => {
    me.listMyNotifications.mockResolvedValue({
      items: [notification('a', 'sent'), notification('bb', 'failed'), notification('ccc', 'none', '2026-11-30T11:00:00Z')],
    });
    renderBell();
    expect((await screen.findByTestId('notifications-count')).textContent).toBe('2');
    fireEvent.click(screen.getByTestId('notifications-bell'));
    const items = await screen.findAllByTestId('notification-item');
    expect(items).toHaveLength(3);
    const mailed = items.find((i) => i.textContent?.includes('Your job a '));
    const failed = items.find((i) => i.textContent?.includes('Your job bb '));
    const plain = items.find((i) => i.textContent?.includes('Your job ccc '));
    expect(within(mailed!).getByTestId('notification-mailed').textContent).toContain('also sent by e-mail');
    expect(within(failed!).getByTestId('notification-mail-failed').textContent).toContain('could not be delivered');
    expect(within(plain!).queryByTestId('notification-mailed')).toBeNull();
    expect(within(plain!).queryByTestId('notification-mail-failed')).toBeNull();
  });

  it("counts the requests waiting for one's review and links to them", async () => {
    me.listMyNotifications.mockResolvedValue({ items: [notification('a', 'none')] });
    const pending = { id: '7', kind: 'quota-grant', state: 'pending' } as unknown as Approval;
    approvals.listApprovals.mockResolvedValue({ items: [pending, { ...pending, id: '8' }], nextCursor: null });
    renderBell();
    await vi.waitFor(() => expect(screen.getByTestId('notifications-count').textContent).toBe('3'));
    expect(approvals.listApprovals).toHaveBeenCalledWith({ scope: 'review', state: 'pending' }, expect.anything());
    fireEvent.click(screen.getByTestId('notifications-bell'));
    const link = await screen.findByTestId('notifications-reviews');
    expect(link.textContent).toBe('2 requests wait for your review');
    expect(link.getAttribute('href')).toBe('/approvals?scope=review');
  });
});

describe('bellBadge', () => {
  it.each([
    [0, undefined, null],
    [2, { count: 0, more: false }, '2'],
    [1, { count: 1, more: false }, '2'],
    [0, { count: 50, more: true }, '50+'],
    [90, { count: 50, more: true }, '99+'],
  ])('unread %s with reviews %j shows %s', (unread, reviews, shown) => {
    expect(bellBadge(unread, reviews)).toBe(shown);
  });
});
