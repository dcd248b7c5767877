import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as accountsApi from '../../api/accounts';
import { ApiError } from '../../api/errors';
import type { Account } from '../../api/types';
import { ArchiveSection } from './ArchiveSection';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, archiveAccount: vi.fn() };
});
const api = vi.mocked(accountsApi);

const LAB: Account = {
  slug: 'course-101',
  name: 'Course 101',
  kind: 'team',
  gid: 200002,
  expiresAt: null,
  archivedAt: null,
  myRole: null,
  quota: [],
};

function renderSection(account: Account, platformAdmin = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ArchiveSection account={account} platformAdmin={platformAdmin} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.archiveAccount.mockReset();
});

describe('ArchiveSection', () => {
  it('archives after a confirmation and says how many jobs were stopped', async () => {
    api.archiveAccount.mockResolvedValue({ account: { ...LAB, archivedAt: '2026-12-01T10:00:00Z' }, jobsStopped: 3 });
    renderSection(LAB);
    fireEvent.click(screen.getByTestId('account-archive'));
    expect(api.archiveAccount).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('account-archive-confirm'));
    expect(await screen.findByText('3 jobs were stopped.')).toBeTruthy();
    expect(api.archiveAccount).toHaveBeenCalledWith('course-101');
  });

  it('shows the refusal', async () => {
    api.archiveAccount.mockRejectedValue(
      new ApiError({
        status: 409,
        code: 'AccountArchived',
        title: 'Conflict',
        detail: "account 'course-101' was archived at 2026-12-01T10:00:00Z",
      }),
    );
    renderSection(LAB);
    fireEvent.click(screen.getByTestId('account-archive'));
    fireEvent.click(screen.getByTestId('account-archive-confirm'));
    expect(await screen.findByText(/was archived at/)).toBeTruthy();
  });

  it('is offered to platform admins for team accounts only, and an archived account says so', () => {
    const { unmount } = renderSection(LAB, false);
    expect(screen.queryByTestId('account-archive')).toBeNull();
    unmount();
    const personal = renderSection({ ...LAB, kind: 'personal' });
    expect(screen.queryByTestId('account-archive')).toBeNull();
    personal.unmount();
    renderSection({ ...LAB, archivedAt: '2026-12-01T10:00:00Z' }, false);
    expect(screen.getByTestId('account-archived').textContent).toContain('No job starts here any more');
  });
});
