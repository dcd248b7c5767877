import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { JobKind, JobState } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { btnSecondary, inputClass } from '../../components/common/ui';
import { accountListQuery, membersQuery } from '../accounts/queries';
import { userListQuery } from '../admin/queries';
import { useCurrentUser } from '../auth/session';
import { useAcceleratorModels } from '../catalog/queries';
import { JobList, selectClass } from '../jobs/JobsPage';
import { JOB_KINDS } from '../jobs/jobForm';
import { JOB_STATES } from '../jobs/jobState';
import { useJobEvents } from '../jobs/useJobEvents';
import { activeFilters, filterFromSearch, listFilter, searchFromFilter, type AdminJobsFilter } from './adminJobsFilter';

/** A text filter applied on Enter or when it loses focus, not at every key. */
function CommitInput({
  testId,
  label,
  value,
  options,
  onCommit,
}: {
  testId: string;
  label: string;
  value: string;
  options: readonly string[];
  onCommit: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setText(value);
  }
  const commit = () => {
    if (text.trim() !== value) onCommit(text.trim());
  };
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-600">
      {label}
      <input
        data-testid={testId}
        list={`${testId}-options`}
        className={`${inputClass} w-40 py-1`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      <datalist id={`${testId}-options`}>
        {options.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
    </label>
  );
}

/** Names to suggest: the users (platform admins) or the account's members. */
function useOwnerOptions(fixedAccount: string | undefined, platformAdmin: boolean): string[] {
  const users = useInfiniteQuery({ ...userListQuery(''), enabled: platformAdmin && fixedAccount === undefined });
  const members = useQuery({ ...membersQuery(fixedAccount ?? ''), enabled: fixedAccount !== undefined });
  if (fixedAccount !== undefined) return (members.data?.items ?? []).map((m) => m.username);
  return (users.data?.pages ?? []).flatMap((p) => p.items.map((u) => u.username));
}

/**
 * Jobs across accounts: every account's for a platform admin (`/admin/jobs`), or one account's for its admins
 * (`/accounts/:slug/jobs`), filtered by account, owner, state, kind and accelerator model. The filters live in the
 * address, so a filtered view can be shared and survives a reload.
 */
export function AdminJobsPage({ fixedAccount }: { fixedAccount?: string }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const platformAdmin = user.role === 'admin';
  const [search, setSearch] = useSearchParams();
  const filter = filterFromSearch(search, fixedAccount);
  const set = (patch: Partial<AdminJobsFilter>) => setSearch(searchFromFilter({ ...filter, ...patch }, fixedAccount));
  const models = useAcceleratorModels();
  const accounts = useInfiniteQuery({ ...accountListQuery(''), enabled: fixedAccount === undefined });
  const owners = useOwnerOptions(fixedAccount, platformAdmin);
  const stream = useJobEvents(fixedAccount ? `jobs:${fixedAccount}` : 'jobs');
  const accountSlugs = (accounts.data?.pages ?? []).flatMap((p) => p.items.map((a) => a.slug));
  const list = listFilter(filter);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader
          title={fixedAccount ? t('adminJobs.accountTitle', { account: fixedAccount }) : t('adminJobs.title')}
          subtitle={fixedAccount ? t('adminJobs.accountSubtitle') : t('adminJobs.subtitle')}
        />
        {fixedAccount && (
          <Link to={`/accounts/${encodeURIComponent(fixedAccount)}`} className={btnSecondary}>
            {t('adminJobs.backToAccount')}
          </Link>
        )}
      </div>
      <div data-testid="admin-jobs-filters" className="flex flex-wrap items-center gap-x-6 gap-y-3">
        {fixedAccount === undefined && (
          <CommitInput
            testId="admin-jobs-account"
            label={t('adminJobs.account')}
            value={filter.account}
            options={accountSlugs}
            onCommit={(account) => set({ account })}
          />
        )}
        <CommitInput
          testId="admin-jobs-owner"
          label={t('adminJobs.owner')}
          value={filter.owner}
          options={owners}
          onCommit={(owner) => set({ owner: owner.toLowerCase() })}
        />
        <label className="inline-flex items-center gap-2 text-sm text-slate-600">
          {t('jobs.filterState')}
          <select
            data-testid="admin-jobs-state"
            className={selectClass}
            value={filter.state}
            onChange={(e) => set({ state: e.target.value as JobState | '' })}
          >
            <option value="">{t('jobs.allStates')}</option>
            {JOB_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`jobs.state.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-flex items-center gap-2 text-sm text-slate-600">
          {t('jobs.filterKind')}
          <select
            data-testid="admin-jobs-kind"
            className={selectClass}
            value={filter.kind}
            onChange={(e) => set({ kind: e.target.value as JobKind | '' })}
          >
            <option value="">{t('jobs.allKinds')}</option>
            {JOB_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`jobs.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-flex items-center gap-2 text-sm text-slate-600">
          {t('adminJobs.model')}
          <select
            data-testid="admin-jobs-model"
            className={selectClass}
            value={filter.model}
            onChange={(e) => set({ model: e.target.value })}
          >
            <option value="">{t('adminJobs.allModels')}</option>
            {(models.data?.items ?? []).map((m) => (
              <option key={m.key} value={m.key}>
                {m.displayName}
              </option>
            ))}
          </select>
        </label>
        {activeFilters(filter, fixedAccount) > 0 && (
          <button type="button" data-testid="admin-jobs-clear" className={btnSecondary} onClick={() => setSearch(new URLSearchParams())}>
            {t('adminJobs.clear')}
          </button>
        )}
      </div>
      <JobList key={JSON.stringify(list)} filter={list} stream={stream} showAccount={fixedAccount === undefined} />
    </div>
  );
}

/** `/accounts/:slug/jobs`: one account's jobs. */
export function AccountJobsPage() {
  const { slug = '' } = useParams();
  return <AdminJobsPage fixedAccount={slug} />;
}
