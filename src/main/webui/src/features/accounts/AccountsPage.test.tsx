import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AccountSummary, User } from '../../api/types';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { CurrentUserContext } from '../auth/session';
import { AccountsPage } from './AccountsPage';

const ADMIN: User = { id: 'u1', username: 'admin', displayName: 'Admin', role: 'admin' };

const account = (slug: string, overrides: Partial<AccountSummary> = {}): AccountSummary => ({
  slug,
  name: `${slug} lab`,
  kind: 'team',
  gid: 200001,
  expiresAt: null,
  archivedAt: null,
  members: 3,
  ...overrides,
});
const ACCOUNTS = [account('vision', { members: 12 }), account('old-nlp', { archivedAt: '2026-01-01T00:00:00Z', gid: 200002 })];

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CurrentUserContext.Provider value={ADMIN}>
        <MemoryRouter>
          <AccountsPage />
        </MemoryRouter>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

describe('AccountsPage', () => {
  it('lists the accounts, searches by the text sent and says when nothing matches', async () => {
    const sent = mockFetch({
      'GET /api/v1/accounts': (req) => {
        const q = req.query.get('q') ?? '';
        return json({ items: ACCOUNTS.filter((a) => a.slug.includes(q)), nextCursor: null });
      },
    });
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('account-row')).toHaveLength(2));
    const archived = screen.getAllByTestId('account-row')[1]!;
    expect(archived.getAttribute('data-slug')).toBe('old-nlp');
    expect(Array.from(archived.querySelectorAll('td')).map((td) => td.textContent)).toEqual([
      'old-nlp labArchived',
      'old-nlp',
      'Team',
      '200002',
      '3',
      'Never',
    ]);
    expect(within(archived).getByRole('link').getAttribute('href')).toBe('/accounts/old-nlp');

    fireEvent.change(screen.getByTestId('account-search'), { target: { value: ' gpu ' } });
    fireEvent.submit(screen.getByRole('search'));
    await waitFor(() => expect(screen.getByTestId('empty-state').textContent).toBe('No account matches “gpu”.'));
    // The first list asks for everything (no q), the search for the trimmed text.
    expect(sent.map((r) => r.query.get('q'))).toEqual([null, 'gpu']);
  });

  it('shows the problem when the list cannot be read', async () => {
    mockFetch({ 'GET /api/v1/accounts': problem(503, 'Unavailable', 'the database is down') });
    renderPage();
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('Could not load accounts.');
    expect(error.textContent).toContain('the database is down');
    expect(screen.queryByTestId('account-table')).toBeNull();
  });
});
