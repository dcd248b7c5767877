import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { archiveAccount } from '../../api/accounts';
import type { Account } from '../../api/types';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { FormError, SuccessNote } from '../../components/common/Form';
import { formatDateTime } from '../../lib/time';
import { jobKeys } from '../jobs/queries';
import { accountKeys } from './queries';

/**
 * An archived account's notice, or for a platform admin the way to archive a team account: no job starts in it
 * again, its unfinished jobs are stopped, its members, quota and jobs stay for usage and the audit trail.
 */
export function ArchiveSection({ account, platformAdmin }: { account: Account; platformAdmin: boolean }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => archiveAccount(account.slug),
    onSuccess: (res) => {
      queryClient.setQueryData(accountKeys.detail(account.slug), res.account);
      void queryClient.invalidateQueries({ queryKey: accountKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: jobKeys.all });
    },
  });
  if (account.archivedAt !== null) {
    return (
      <div
        role="status"
        data-testid="account-archived"
        className="rounded-md border border-slate-300 bg-slate-100 px-4 py-3 text-sm text-slate-700"
      >
        <p className="font-medium">{t('accountsAdmin.archivedAt', { time: formatDateTime(account.archivedAt, i18n.language) })}</p>
        <p>{t('accountsAdmin.archivedHint')}</p>
        {mutation.data && <p data-testid="account-archive-stopped">{t('accountsAdmin.stopped', { count: mutation.data.jobsStopped })}</p>}
      </div>
    );
  }
  if (!platformAdmin || account.kind !== 'team') return null;
  return (
    <section aria-labelledby="archive-heading" className="flex flex-col gap-2 rounded-xl border border-rose-200 bg-white p-4">
      <h2 id="archive-heading" className="text-sm font-semibold text-slate-800">
        {t('accountsAdmin.archiveTitle')}
      </h2>
      <p className="text-sm text-slate-600">{t('accountsAdmin.archiveHint')}</p>
      <div>
        <ConfirmButton testId="account-archive" small={false} disabled={mutation.isPending} onConfirm={() => mutation.mutate()}>
          {t('accountsAdmin.archive')}
        </ConfirmButton>
      </div>
      {mutation.isError && <FormError error={mutation.error} />}
      {mutation.isSuccess && <SuccessNote>{t('accountsAdmin.stopped', { count: mutation.data.jobsStopped })}</SuccessNote>}
    </section>
  );
}
