import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import * as accountsApi from '../../api/accounts';
import type { AccountSummary } from '../../api/types';
import { AccountRolesField, type AccountRoleRow } from './AccountRolesField';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, listAccounts: vi.fn() };
});
const api = vi.mocked(accountsApi);

const account = (slug: string, kind: AccountSummary['kind'], archivedAt: string | null = null) =>
  ({ slug, name: slug.toUpperCase(), kind, gid: 200001, expiresAt: null, archivedAt }) as AccountSummary;

/** The rows the field last reported to its owner. */
let rows: AccountRoleRow[] = [];
const record = (value: AccountRoleRow[]) => {
  rows = value;
};
function Harness({ errors = {} }: { errors?: Record<string, string> }) {
  const [value, setValue] = useState<AccountRoleRow[]>([]);
  const onChange = (next: AccountRoleRow[]) => {
    record(next);
    setValue(next);
  };
  return <AccountRolesField value={value} onChange={onChange} errorOf={(f) => errors[f]} />;
}

function renderField(errors?: Record<string, string>) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Harness errors={errors} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  record([]);
  api.listAccounts.mockReset();
  api.listAccounts.mockResolvedValue({
    items: [account('vision', 'team'), account('u-ann', 'personal'), account('old-lab', 'team', '2026-11-01T00:00:00Z')],
    nextCursor: null,
  });
});

describe('the accounts a new user joins', () => {
  it('offers only team accounts that are not archived, and keeps a role per row', async () => {
    renderField();
    fireEvent.click(screen.getByTestId('user-create-account-add'));
    await waitFor(() => expect(screen.getByTestId('user-create-account-0').querySelectorAll('option').length).toBe(2));
    const offered = Array.from(screen.getByTestId('user-create-account-0').querySelectorAll('option')).map((o) => o.value);
    expect(offered).toEqual(['', 'vision']);
    fireEvent.change(screen.getByTestId('user-create-account-0'), { target: { value: 'vision' } });
    fireEvent.change(screen.getByTestId('user-create-account-role-0'), { target: { value: 'admin' } });
    expect(rows).toEqual([{ account: 'vision', role: 'admin' }]);
    fireEvent.click(screen.getByTestId('user-create-account-remove-0'));
    expect(rows).toEqual([]);
  });

  it("shows the server's refusal under the row it names", async () => {
    renderField({ 'accounts[0].account': "no team account 'gone'" });
    fireEvent.click(screen.getByTestId('user-create-account-add'));
    expect(await screen.findByText("no team account 'gone'")).toBeTruthy();
  });
});
