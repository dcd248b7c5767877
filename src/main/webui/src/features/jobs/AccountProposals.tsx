import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DryRunResult } from '../../api/types';
import { btnSecondary } from '../../components/common/ui';
import { useMyProfile } from '../me/queries';
import { useCurrentAccount } from '../me/useCurrentAccount';
import { proposals, worthProposing } from './accountProposals';

/** At most this many other accounts are checked. */
export const MAX_PROPOSAL_ACCOUNTS = 10;

/**
 * When the check did not admit the job: the same check in the user's other accounts, and those where it would fit,
 * each with a switch to it (which checks again there).
 */
export function AccountProposals({
  result,
  requestKey,
  check,
}: {
  result: DryRunResult;
  /** Identifies the request checked (part of the query keys). */
  requestKey: string;
  /** The same dry run in another account. */
  check: (account: string) => Promise<DryRunResult>;
}) {
  const { t } = useTranslation();
  const me = useMyProfile();
  const { account, select } = useCurrentAccount();
  const wanted = worthProposing(result);
  const others = (me.data?.accounts ?? []).filter((a) => a.slug !== account).slice(0, MAX_PROPOSAL_ACCOUNTS);
  const results = useQueries({
    queries: others.map((a) => ({
      queryKey: ['jobs', 'proposal', a.slug, requestKey],
      queryFn: () => check(a.slug),
      enabled: wanted,
      retry: false,
      staleTime: 10_000,
    })),
  });
  if (!wanted || others.length === 0) return null;
  const pending = results.some((r) => r.isPending);
  const found = proposals(others.map((a, i) => ({ slug: a.slug, name: a.name, result: results[i]?.data })));
  if (pending) {
    return (
      <p role="status" data-testid="account-proposals-checking" className="text-sm text-slate-500">
        {t('onboarding.proposalsChecking')}
      </p>
    );
  }
  if (found.length === 0) return null;
  return (
    <section data-testid="account-proposals" className="flex flex-col gap-2 rounded-md border border-emerald-200 bg-emerald-50 p-3">
      <h3 className="text-sm font-semibold text-emerald-900">{t('onboarding.proposalsTitle')}</h3>
      <ul className="flex flex-col gap-1.5">
        {found.map((p) => (
          <li
            key={p.slug}
            data-testid="account-proposal"
            data-slug={p.slug}
            data-fit={p.fit}
            className="flex flex-wrap items-center gap-2 text-sm"
          >
            <span className="text-emerald-900">{t(`onboarding.proposalFit.${p.fit}`, { name: p.name })}</span>
            <button type="button" data-testid={`account-proposal-use-${p.slug}`} className={btnSecondary} onClick={() => select(p.slug)}>
              {t('onboarding.proposalSwitch', { name: p.name })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
