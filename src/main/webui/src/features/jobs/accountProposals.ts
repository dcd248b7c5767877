import type { DryRunResult } from '../../api/types';

/** Reasons that say the request does not fit the account itself (its quota or the member's limits). */
const ACCOUNT_BOUND = new Set(['AccountQuotaExceeded', 'MemberLimitReached', 'AccountExpired']);

/** Another account where the request would fit: `now` = it would start at once, `quota` = it fits the quota and waits only for room. */
export interface Proposal {
  slug: string;
  name: string;
  fit: 'now' | 'quota';
}

/** Whether to look in the user's other accounts: the check did not admit the job. */
export function worthProposing(result: DryRunResult): boolean {
  return result.decision !== 'ADMIT';
}

/**
 * The accounts where the same request fits, best first: those where it would start now, then those whose quota
 * and limits allow it (it would wait only for capacity). An account whose check failed (not a member any more, an
 * archived account) or that refuses the request is left out.
 */
export function proposals(checked: readonly { slug: string; name: string; result: DryRunResult | undefined }[]): Proposal[] {
  const out: Proposal[] = [];
  for (const c of checked) {
    if (c.result === undefined || c.result.decision === 'REJECT') continue;
    if (c.result.decision === 'ADMIT') out.push({ slug: c.slug, name: c.name, fit: 'now' });
    else if (!c.result.reasons.some((r) => ACCOUNT_BOUND.has(r.code))) out.push({ slug: c.slug, name: c.name, fit: 'quota' });
  }
  return out.sort((a, b) => (a.fit === b.fit ? 0 : a.fit === 'now' ? -1 : 1));
}
