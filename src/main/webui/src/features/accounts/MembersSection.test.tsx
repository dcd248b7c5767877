import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as accountsApi from '../../api/accounts';
import * as usersApi from '../../api/users';
import type { ManagedUser, Member } from '../../api/types';
import { MembersSection } from './MembersSection';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, listMembers: vi.fn() };
});
vi.mock('../../api/users', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/users')>();
  return { ...actual, listUsers: vi.fn() };
});
const accounts = vi.mocked(accountsApi);
const users = vi.mocked(usersApi);

const member = (username: string): Member => ({
  username,
  displayName: username,
  role: 'member',
  fileAccess: 'rw',
  limits: { resources: {}, maxRunningJobs: null, maxInteractiveSessions: null },
  effectiveLimits: { resources: {}, maxRunningJobs: null, maxInteractiveSessions: null },
  grantedBy: 'manual',
});
const user = (username: string): ManagedUser => ({
  id: username,
  username,
  slug: username,
  uid: 20001,
  displayName: username,
  email: null,
  role: 'user',
  disabled: false,
  createdAt: '2026-12-01T10:00:00Z',
  defaultAccount: `u-${username}`,
  gid: null,
});

function renderSection(suggestUsers: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MembersSection slug="vision" canManage resources={[]} suggestUsers={suggestUsers} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  accounts.listMembers.mockReset();
  users.listUsers.mockReset();
  accounts.listMembers.mockResolvedValue({ items: [member('ann')] });
  users.listUsers.mockResolvedValue({ items: [user('ann'), user('ada.new'), user('adam')], nextCursor: null });
});

describe('the add-member field', () => {
  it('suggests the usernames a platform admin types towards, without those already members', async () => {
    renderSection(true);
    fireEvent.change(screen.getByTestId('member-add-username'), { target: { value: 'ad' } });
    await waitFor(() => expect(users.listUsers).toHaveBeenCalledWith(expect.objectContaining({ q: 'ad' }), expect.anything()));
    await waitFor(() => {
      const options = Array.from(screen.getByTestId('member-add-username-options').querySelectorAll('option')).map((o) => o.value);
      expect(options).toEqual(['ada.new', 'adam']);
    });
    expect(screen.getByTestId('member-add-username').getAttribute('list')).toBe('member-add-username-options');
  });

  it('lists no users for an account admin, who may not', async () => {
    renderSection(false);
    fireEvent.change(screen.getByTestId('member-add-username'), { target: { value: 'ad' } });
    await screen.findAllByText('ann');
    expect(users.listUsers).not.toHaveBeenCalled();
    expect(screen.queryByTestId('member-add-username-options')).toBeNull();
  });
});

describe('who granted a membership', () => {
  it('marks the memberships a directory or a sign-in provider granted, and only those', async () => {
    accounts.listMembers.mockResolvedValue({
      items: [member('ann'), { ...member('bob'), grantedBy: 'ldap:corp' }, { ...member('cleo'), grantedBy: 'oidc:corp-sso' }],
    });
    renderSection(false);
    await screen.findAllByText('bob');
    const marks = screen.getAllByTestId('member-granted-by');
    expect(marks).toHaveLength(2);
    expect(marks[0]!.textContent).toBe('granted by the directory (ldap:corp); a sync may remove it');
    expect(marks[1]!.textContent).toBe('granted by the sign-in provider (oidc:corp-sso); the next sign-in may remove it');
  });
});
