import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import * as accountsApi from '../../api/accounts';
import { ApiError } from '../../api/errors';
import type { User } from '../../api/types';
import { CurrentUserContext } from '../auth/session';
import { AccountsPage } from './AccountsPage';
import { checkCreateAccount, slugFromName } from './createAccountForm';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, createAccount: vi.fn(), listAccounts: vi.fn(() => Promise.resolve({ items: [], nextCursor: null })) };
});
vi.mock('../../api/users', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/users')>();
  return { ...actual, listUsers: () => Promise.resolve({ items: [{ username: 'lab.lead' }], nextCursor: null }) };
});
const api = vi.mocked(accountsApi);
const NOW = Date.parse('2026-12-01T10:00:00Z');

describe('slugFromName', () => {
  it.each([
    ['Vision Lab', 'vision-lab'],
    ['  Course 101 (2026) ', 'course-101-2026'],
    ['Café Été', 'cafe-ete'],
    ['x'.repeat(60), 'x'.repeat(50)],
  ])('%s → %s', (name, slug) => expect(slugFromName(name)).toBe(slug));
});

describe('checkCreateAccount', () => {
  it('names each problem under its field', () => {
    expect(checkCreateAccount({ name: ' ', slug: 'u-bob', expires: '2020-01-01', admin: '' }, NOW).errors).toEqual({
      name: 'accountsAdmin.nameRequired',
      slug: 'accounts.slugInvalid',
      expires: 'accountsAdmin.expiryPast',
    });
  });
  it('sends the first admin in lower case, and no expiry when none is given', () => {
    expect(checkCreateAccount({ name: 'Vision Lab', slug: 'vision-lab', expires: '', admin: 'Lab.Lead' }, NOW).body).toEqual({
      slug: 'vision-lab',
      name: 'Vision Lab',
      admin: 'lab.lead',
    });
  });
});

const ADMIN = { id: 1, username: 'admin', displayName: 'Admin', role: 'admin' } as unknown as User;

function openDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={ADMIN}>
        <MemoryRouter>
          <AccountsPage />
        </MemoryRouter>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByTestId('account-create-open'));
}

beforeEach(() => {
  api.createAccount.mockReset();
});

describe('CreateAccountDialog', () => {
  it('asks for the name first, proposes the slug, and sends the first admin', async () => {
    api.createAccount.mockResolvedValue({ slug: 'vision-lab' } as never);
    openDialog();
    const inputs = screen.getAllByRole('textbox');
    expect(inputs[0]).toBe(screen.getByTestId('account-create-name'));
    fireEvent.change(screen.getByTestId('account-create-name'), { target: { value: 'Vision Lab' } });
    expect((screen.getByTestId('account-create-slug') as HTMLInputElement).value).toBe('vision-lab');
    fireEvent.change(screen.getByTestId('account-create-admin'), { target: { value: 'lab.lead' } });
    fireEvent.click(screen.getByTestId('account-create-submit'));
    await waitFor(() => expect(api.createAccount).toHaveBeenCalled());
    expect(api.createAccount.mock.calls[0]?.[0]).toEqual({ slug: 'vision-lab', name: 'Vision Lab', admin: 'lab.lead' });
  });

  it('shows a past expiry under its field and sends nothing', () => {
    openDialog();
    fireEvent.change(screen.getByTestId('account-create-name'), { target: { value: 'Old' } });
    fireEvent.change(screen.getByTestId('account-create-expires'), { target: { value: '2020-01-01' } });
    fireEvent.click(screen.getByTestId('account-create-submit'));
    expect(screen.getByText('The expiry must be a date in the future.')).toBeTruthy();
    expect(api.createAccount).not.toHaveBeenCalled();
  });

  it('drops the old error once the input changes', async () => {
    api.createAccount.mockRejectedValue(
      new ApiError({ status: 409, code: 'AccountExists', title: 'Conflict', detail: "an account 'vision-lab' exists already" }),
    );
    openDialog();
    fireEvent.change(screen.getByTestId('account-create-name'), { target: { value: 'Vision Lab' } });
    fireEvent.click(screen.getByTestId('account-create-submit'));
    expect(await screen.findByText(/exists already/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('account-create-slug'), { target: { value: 'vision-lab-2' } });
    expect(screen.queryByText(/exists already/)).toBeNull();
  });
});
