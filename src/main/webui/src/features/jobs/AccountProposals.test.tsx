import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DryRunResult } from '../../api/types';
import { AccountProposals } from './AccountProposals';
import { proposals, worthProposing } from './accountProposals';

const select = vi.fn();
vi.mock('../me/useCurrentAccount', () => ({ useCurrentAccount: () => ({ account: 'u-alice', select }) }));
vi.mock('../me/queries', () => ({
  useMyProfile: () => ({
    data: {
      accounts: [
        { slug: 'u-alice', name: 'alice', kind: 'personal' },
        { slug: 'vision-lab', name: 'Vision Lab', kind: 'team' },
        { slug: 'nlp-lab', name: 'NLP Lab', kind: 'team' },
        { slug: 'old-course', name: 'Old Course', kind: 'team' },
      ],
    },
  }),
}));

function result(decision: DryRunResult['decision'], codes: string[] = []): DryRunResult {
  return { decision, reasons: codes.map((code) => ({ code, message: code, numbers: {} })), borrowing: [], manifests: '' };
}

const OVER_QUOTA = result('QUEUE', ['AccountQuotaExceeded']);

describe('proposals', () => {
  it('keeps the accounts where the request fits, starting now first', () => {
    expect(
      proposals([
        { slug: 'a', name: 'A', result: result('QUEUE', ['InsufficientCapacity']) },
        { slug: 'b', name: 'B', result: OVER_QUOTA },
        { slug: 'c', name: 'C', result: result('ADMIT') },
        { slug: 'd', name: 'D', result: result('REJECT', ['AccountExpired']) },
        { slug: 'e', name: 'E', result: undefined },
        { slug: 'f', name: 'F', result: result('QUEUE', ['MemberLimitReached']) },
      ]),
    ).toEqual([
      { slug: 'c', name: 'C', fit: 'now' },
      { slug: 'a', name: 'A', fit: 'quota' },
    ]);
  });
  it('is asked for only when the check did not admit', () => {
    expect(worthProposing(result('ADMIT'))).toBe(false);
    expect(worthProposing(OVER_QUOTA)).toBe(true);
  });
});

describe('AccountProposals', () => {
  function renderProposals(check: (slug: string) => Promise<DryRunResult>, shown: DryRunResult = OVER_QUOTA) {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <AccountProposals result={shown} requestKey="nb" check={check} />
      </QueryClientProvider>,
    );
  }

  it('checks the other accounts and offers a switch to those where the job fits', async () => {
    const check = vi.fn((slug: string) =>
      slug === 'vision-lab'
        ? Promise.resolve(result('ADMIT'))
        : slug === 'nlp-lab'
          ? Promise.resolve(OVER_QUOTA)
          : Promise.reject(new Error('archived')),
    );
    renderProposals(check);
    expect(screen.getByTestId('account-proposals-checking')).toBeTruthy();
    const items = await screen.findAllByTestId('account-proposal');
    expect(check.mock.calls.map((c) => c[0]).sort()).toEqual(['nlp-lab', 'old-course', 'vision-lab']);
    expect(items.map((i) => [i.dataset.slug, i.dataset.fit])).toEqual([['vision-lab', 'now']]);
    expect(items[0]?.textContent).toContain('Vision Lab: it would start now.');
    fireEvent.click(screen.getByTestId('account-proposal-use-vision-lab'));
    expect(select).toHaveBeenCalledWith('vision-lab');
  });

  it('looks nowhere else when the job is admitted', () => {
    const check = vi.fn(() => Promise.resolve(result('ADMIT')));
    renderProposals(check, result('ADMIT'));
    expect(check).not.toHaveBeenCalled();
    expect(screen.queryByTestId('account-proposals')).toBeNull();
  });
});
