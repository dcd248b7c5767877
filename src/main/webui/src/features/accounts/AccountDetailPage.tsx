import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { updateAccount } from '../../api/accounts';
import { fieldError, isApiError } from '../../api/errors';
import type { Account, Approval } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError, SuccessNote } from '../../components/common/Form';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { formatDateTime, isPast, localInputToIso } from '../../lib/time';
import { BudgetSection } from '../accounting/BudgetSection';
import { RequestForm } from '../approvals/RequestForm';
import { useCurrentUser } from '../auth/session';
import { NotFoundPage } from '../../app/NotFoundPage';
import { MembersSection } from './MembersSection';
import { ArchiveSection } from './ArchiveSection';
import { QuotaSection } from './QuotaSection';
import { TimeLimitsSection } from './TimeLimitsSection';
import { FeaturesSection } from './FeaturesSection';
import { accountKeys, accountQuery } from './queries';

function EditAccountDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(account.name);
  const [expires, setExpires] = useState(account.expiresAt ? account.expiresAt.slice(0, 10) : '');
  const mutation = useMutation({
    mutationFn: () => {
      const expiresAt = localInputToIso(expires);
      return updateAccount(account.slug, expiresAt ? { name: name.trim(), expiresAt } : { name: name.trim(), clearExpiry: true });
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(accountKeys.detail(account.slug), updated);
      void queryClient.invalidateQueries({ queryKey: accountKeys.lists() });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  return (
    <Dialog title={t('accounts.edit')} onClose={onClose}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <Field label={t('accounts.name')} error={fieldError(mutation.error, 'name')}>
          <input className={inputClass} value={name} required onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('accounts.expiresAt')} hint={t('accounts.noExpiry')} error={fieldError(mutation.error, 'expiresAt')}>
          <input type="date" className={inputClass} value={expires} onChange={(e) => setExpires(e.target.value)} />
        </Field>
        {mutation.isError && <FormError error={mutation.error} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function AccountDetail({ account }: { account: Account }) {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const platformAdmin = user.role === 'admin';
  const canManage = platformAdmin || account.myRole === 'admin';
  const [editing, setEditing] = useState(false);
  const [requesting, setRequesting] = useState(false);
  const [requested, setRequested] = useState<Approval | null>(null);
  const resources = account.quota.map((l) => ({ key: l.resource, label: l.displayName || l.resource }));

  return (
    <div className="flex flex-col gap-8" data-testid="account-detail" data-slug={account.slug}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-col gap-2">
          <PageHeader title={account.name} subtitle={t('accounts.detailSubtitle')} />
          {account.archivedAt !== null && (
            <p data-testid="account-archived-tag" className="w-fit rounded bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">
              {t('accountsAdmin.archived')}
            </p>
          )}
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
            <div className="flex gap-1.5">
              <dt className="text-slate-400">{t('accounts.slug')}</dt>
              <dd className="font-mono">{account.slug}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="text-slate-400">{t('accounts.kind')}</dt>
              <dd>{t(`accounts.kinds.${account.kind}`)}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="text-slate-400">{t('accounts.gid')}</dt>
              <dd className="tabular-nums">{account.gid}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="text-slate-400">{t('accounts.expiresAt')}</dt>
              <dd className={isPast(account.expiresAt) ? 'text-rose-700' : undefined}>
                {account.expiresAt ? formatDateTime(account.expiresAt, i18n.language) : t('accounts.never')}
              </dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="text-slate-400">{t('accounts.myRole')}</dt>
              <dd data-testid="account-my-role">{account.myRole ? t(`members.roles.${account.myRole}`) : t('accounts.notMember')}</dd>
            </div>
          </dl>
        </div>
        <div className="flex gap-2">
          <Link to="/accounts" className={btnSecondary}>
            {t('accounts.back')}
          </Link>
          {canManage && (
            <Link to={`/accounts/${encodeURIComponent(account.slug)}/jobs`} data-testid="account-jobs-link" className={btnSecondary}>
              {t('adminJobs.accountJobs')}
            </Link>
          )}
          {canManage && (
            <button type="button" data-testid="account-edit-open" className={btnSecondary} onClick={() => setEditing(true)}>
              {t('accounts.edit')}
            </button>
          )}
        </div>
      </div>
      {requested && (
        <SuccessNote testId="grant-requested">
          {t('request.created', { kind: t('approvals.kinds.quota-grant') })}{' '}
          <Link to="/approvals" className="font-medium underline">
            {t('request.viewRequests')}
          </Link>
        </SuccessNote>
      )}
      <QuotaSection account={account} platformAdmin={platformAdmin} onRequestGrant={() => setRequesting(true)} />
      <TimeLimitsSection slug={account.slug} />
      <FeaturesSection slug={account.slug} />
      <BudgetSection slug={account.slug} platformAdmin={platformAdmin} accountAdmin={account.myRole === 'admin'} />
      <MembersSection slug={account.slug} canManage={canManage} resources={resources} suggestUsers={platformAdmin} />
      <ArchiveSection account={account} platformAdmin={platformAdmin} />
      {editing && <EditAccountDialog account={account} onClose={() => setEditing(false)} />}
      {requesting && (
        <Dialog title={t('quota.requestTitle', { name: account.name })} onClose={() => setRequesting(false)} testId="grant-dialog">
          <RequestForm
            kind="quota-grant"
            account={account.slug}
            resources={resources}
            onCancel={() => setRequesting(false)}
            onCreated={(a) => {
              setRequested(a);
              setRequesting(false);
            }}
          />
        </Dialog>
      )}
    </div>
  );
}

export function AccountDetailPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  const query = useQuery(accountQuery(slug));
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
    return <ErrorState title={t('accounts.loadOneError')} error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <AccountDetail key={query.data.slug} account={query.data} />;
}
