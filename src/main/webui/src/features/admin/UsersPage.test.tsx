import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ManagedUser, User } from '../../api/types';
import { json, mockFetch } from '../../test/mockFetch';
import { CurrentUserContext } from '../auth/session';
import { UsersPage } from './UsersPage';

const ADMIN: User = { id: 'u1', username: 'admin', displayName: 'Admin', role: 'admin' };

const user = (username: string, overrides: Partial<ManagedUser> = {}): ManagedUser => ({
  id: `id-${username}`,
  username,
  slug: username,
  uid: 100001,
  displayName: username.toUpperCase(),
  email: null,
  role: 'user',
  disabled: false,
  createdAt: '2026-03-01T10:00:00Z',
  defaultAccount: `u-${username}`,
  gid: null,
  ...overrides,
});
const USERS = [user('admin', { role: 'admin', uid: 100000 }), user('ann', { email: 'ann@example.org', disabled: true })];

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CurrentUserContext.Provider value={ADMIN}>
        <MemoryRouter>
          <UsersPage />
        </MemoryRouter>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

describe('UsersPage', () => {
  it('lists users with their own actions under the table headers, and searches', async () => {
    const sent = mockFetch({
      'GET /api/v1/directory': json({
        enabled: false,
        provider: 'ldap:ldap',
        url: null,
        mode: 'search',
        startTls: false,
        syncIntervalSeconds: 0,
        groupMappings: 0,
        lastSync: null,
      }),
      'GET /api/v1/users': (req) => json({ items: USERS.filter((u) => u.username.includes(req.query.get('q') ?? '')), nextCursor: null }),
    });
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(2));
    const headers = Array.from(screen.getByTestId('user-table').querySelectorAll('th')).map((th) => th.textContent);
    expect(headers).toEqual(['User', 'Email', 'UID', 'Platform role', 'Status', 'Created', '']);
    const [self, ann] = screen.getAllByTestId('user-row');
    // One cannot change one's own role or disable oneself; a disabled user can be enabled again.
    expect(within(self!).getByTestId<HTMLSelectElement>('user-role').disabled).toBe(true);
    expect(within(self!).queryByTestId('user-disable')).toBeNull();
    expect(ann!.getAttribute('data-disabled')).toBe('true');
    expect(within(ann!).getByText('ann@example.org')).toBeTruthy();
    expect(within(ann!).getByTestId('user-enable')).toBeTruthy();

    fireEvent.change(screen.getByTestId('user-search'), { target: { value: 'ann' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getAllByTestId('user-row').map((r) => r.getAttribute('data-username'))).toEqual(['ann']));
    expect(sent.filter((r) => r.path === '/api/v1/users').map((r) => r.query.get('q'))).toEqual([null, 'ann']);
  });
});
