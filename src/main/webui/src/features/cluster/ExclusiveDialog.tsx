import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { makeNodeExclusive } from '../../api/cluster';
import { fieldError } from '../../api/errors';
import type { ClusterNode } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { describeError } from '../../components/common/errorText';
import { btnPrimary, btnSecondary, btnSmall, inputClass, inputInvalid, labelText } from '../../components/common/ui';
import { accountListQuery } from '../accounts/queries';
import { useNodeUpdate } from './nodeAdmin';

/**
 * Gives the node to one team account (`PUT …/exclusive`): the admin finds the account by name or slug and picks it
 * from the team accounts that are not archived (personal accounts cannot have nodes).
 */
export function ExclusiveDialog({ node, onClose }: { node: ClusterNode; onClose: () => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [account, setAccount] = useState('');
  const accounts = useInfiniteQuery(accountListQuery(q.trim()));
  const teams = (accounts.data?.pages ?? []).flatMap((p) => p.items).filter((a) => a.kind === 'team' && !a.archivedAt);
  const update = useNodeUpdate();
  const mutation = useMutation({
    mutationFn: () => makeNodeExclusive(node.name, account),
    onSuccess: (n) => {
      update(n);
      onClose();
    },
  });
  const accountError = fieldError(mutation.error, 'account');
  return (
    <Dialog title={t('nodeExclusive.title', { node: node.name })} onClose={onClose} testId="node-exclusive-dialog">
      <form
        className="flex flex-col gap-3 text-left"
        onSubmit={(e) => {
          e.preventDefault();
          if (account !== '') mutation.mutate();
        }}
      >
        <p className="text-sm text-slate-600">{t('nodeExclusive.explain')}</p>
        <label>
          <span className={labelText}>{t('nodeExclusive.search')}</span>
          <input
            data-testid="node-exclusive-search"
            className={inputClass}
            value={q}
            placeholder={t('nodeExclusive.searchPlaceholder')}
            onChange={(e) => setQ(e.target.value)}
          />
        </label>
        <label>
          <span className={labelText}>{t('nodeExclusive.account')}</span>
          <select
            data-testid="node-exclusive-account"
            className={`${inputClass} ${accountError ? inputInvalid : ''}`}
            aria-invalid={accountError !== undefined}
            value={account}
            onChange={(e) => setAccount(e.target.value)}
          >
            <option value="">{accounts.isPending ? t('common.loading') : t('nodeExclusive.choose')}</option>
            {teams.map((a) => (
              <option key={a.slug} value={a.slug}>
                {a.name} ({a.slug})
              </option>
            ))}
          </select>
          {accountError && (
            <span role="alert" className="mt-1 block text-xs text-rose-700">
              {accountError}
            </span>
          )}
        </label>
        <AccountListState
          pending={accounts.isPending}
          error={accounts.isError ? accounts.error : null}
          empty={!accounts.isPending && !accounts.isError && teams.length === 0 && !accounts.hasNextPage}
          searching={q.trim() !== ''}
          onRetry={() => void accounts.refetch()}
        />
        {accounts.hasNextPage && (
          <button
            type="button"
            data-testid="node-exclusive-more"
            className={`${btnSmall} self-start`}
            disabled={accounts.isFetchingNextPage}
            onClick={() => void accounts.fetchNextPage()}
          >
            {accounts.isFetchingNextPage ? t('common.loading') : t('nodeExclusive.more')}
          </button>
        )}
        {mutation.isError && (
          <p role="alert" data-testid="node-exclusive-error" className="text-sm text-rose-700">
            {describeError(mutation.error, t('nodeAdmin.failed'))}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="node-exclusive-submit" className={btnPrimary} disabled={account === '' || mutation.isPending}>
            {mutation.isPending ? t('nodeAdmin.working') : t('nodeExclusive.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Why the account list is empty: still loading, failed (with a retry), or no team account (matching the search). */
function AccountListState(props: { pending: boolean; error: unknown; empty: boolean; searching: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  if (props.error) {
    return (
      <p role="alert" data-testid="node-exclusive-accounts-error" className="text-xs text-rose-700">
        {t('nodeExclusive.accountsError', { detail: describeError(props.error, t('common.unexpected')) })}{' '}
        <button type="button" className="font-medium underline" onClick={props.onRetry}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  if (props.empty) {
    return (
      <p data-testid="node-exclusive-no-accounts" className="text-xs text-slate-500">
        {props.searching ? t('nodeExclusive.noMatch') : t('nodeExclusive.noTeams')}
      </p>
    );
  }
  return null;
}
