import type { JobKind, JobState } from '../../api/types';
import { JOB_KINDS } from '../jobs/jobForm';
import { JOB_STATES } from '../jobs/jobState';
import type { JobListFilter } from '../jobs/queries';

/** The filters of the jobs view across accounts, as they stand in the page's address. */
export interface AdminJobsFilter {
  account: string;
  owner: string;
  state: JobState | '';
  kind: JobKind | '';
  model: string;
}

const FIELDS = ['account', 'owner', 'state', 'kind', 'model'] as const;

/**
 * The filters read from the address (`?account=vision-lab&state=Queued`); an unknown state or kind is dropped
 * rather than sent. A fixed account (an account's own jobs page) wins over the address.
 */
export function filterFromSearch(search: URLSearchParams, fixedAccount?: string): AdminJobsFilter {
  const text = (name: string) => (search.get(name) ?? '').trim();
  const state = text('state');
  const kind = text('kind');
  return {
    account: fixedAccount ?? text('account'),
    owner: text('owner').toLowerCase(),
    state: (JOB_STATES as readonly string[]).includes(state) ? (state as JobState) : '',
    kind: (JOB_KINDS as readonly string[]).includes(kind) ? (kind as JobKind) : '',
    model: text('model'),
  };
}

/** The address for the filters: only those set, and not the account when the page fixes it. */
export function searchFromFilter(filter: AdminJobsFilter, fixedAccount?: string): URLSearchParams {
  const search = new URLSearchParams();
  for (const f of FIELDS) {
    if (f === 'account' && fixedAccount !== undefined) continue;
    if (filter[f] !== '') search.set(f, filter[f]);
  }
  return search;
}

/** The job list's filter for these (every account when none is chosen). */
export function listFilter(filter: AdminJobsFilter): JobListFilter {
  return { account: filter.account, state: filter.state, kind: filter.kind, mine: false, owner: filter.owner, model: filter.model };
}

/** How many filters are set, for the "clear filters" button. */
export function activeFilters(filter: AdminJobsFilter, fixedAccount?: string): number {
  return FIELDS.filter((f) => filter[f] !== '' && !(f === 'account' && fixedAccount !== undefined)).length;
}
