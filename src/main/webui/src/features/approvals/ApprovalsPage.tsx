import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { approveApproval, cancelApproval, rejectApproval } from '../../api/approvals';
import { isApiError } from '../../api/errors';
import type { Approval, ApprovalScope, ApprovalState } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { Dialog } from '../../components/common/Dialog';
import { FormError, LoadMore, SuccessNote, Tabs } from '../../components/common/Form';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSmall, inputClass, tableWrap, td, th } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { accountKeys } from '../accounts/queries';
import { ApprovalStateBadge } from './ApprovalStateBadge';
import { APPROVAL_STATES } from './approvalState';
import { approvalKeys, approvalListQuery } from './queries';
import { RequestForm } from './RequestForm';
import { useCurrentAccount } from '../me/useCurrentAccount';

type Decision = { id: string; action: 'approve' | 'reject' | 'cancel'; comment?: string };

/** Message for a failed decision: known conflict codes get a clear sentence. */
function decisionErrorMessage(error: unknown, t: (k: string) => string): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.code === 'ApprovalNotPending') return t('approvals.notPending');
  if (error.code === 'SelfApproval') return t('approvals.selfApproval');
  return undefined;
}

function ApprovalDetails({ a }: { a: Approval }) {
  const { t, i18n } = useTranslation();
  switch (a.kind) {
    case 'quota-grant':
      return (
        <span>
          <span className="font-medium">
            {a.amount} × {a.resource}
          </span>
          {a.until && (
            <span className="block text-xs text-slate-500">{t('approvals.until', { time: formatDateTime(a.until, i18n.language) })}</span>
          )}
        </span>
      );
    case 'model-access':
      return <span className="font-medium">{a.model}</span>;
    case 'job-lock':
      return (
        <span>
          <span className="font-mono">{a.jobId}</span>
          {a.until && (
            <span className="block text-xs text-slate-500">{t('approvals.until', { time: formatDateTime(a.until, i18n.language) })}</span>
          )}
        </span>
      );
    default:
      return null;
  }
}

function ApprovalRow({ a, scope, busy, onDecide }: { a: Approval; scope: ApprovalScope; busy: boolean; onDecide: (d: Decision) => void }) {
  const { t, i18n } = useTranslation();
  const [comment, setComment] = useState('');
  const pending = a.state === 'pending';
  return (
    <tr data-testid="approval-row" data-state={a.state} data-id={a.id} data-kind={a.kind} className="border-t border-slate-100 align-top">
      <td className={td}>
        <span className="block font-medium text-slate-800">{t(`approvals.kinds.${a.kind}`)}</span>
        <span className="block text-xs text-slate-500">{formatDateTime(a.createdAt, i18n.language)}</span>
      </td>
      <td className={`${td} font-mono`}>{a.account}</td>
      <td className={td}>
        <ApprovalDetails a={a} />
      </td>
      <td className={td}>{a.requester.displayName || a.requester.username}</td>
      <td className={`${td} max-w-64 whitespace-pre-wrap break-words`}>{a.reason}</td>
      <td className={td}>
        <ApprovalStateBadge state={a.state} />
        {a.reviewer && (
          <span className="mt-1 block text-xs text-slate-500">
            {t('approvals.decidedBy', {
              name: a.reviewer.displayName || a.reviewer.username,
              time: formatDateTime(a.decidedAt, i18n.language),
            })}
          </span>
        )}
        {a.comment && <span className="mt-1 block text-xs italic text-slate-600">“{a.comment}”</span>}
      </td>
      <td className={`${td} min-w-56`}>
        {pending && scope === 'review' && (
          <div className="flex flex-col gap-1.5">
            <input
              data-testid="approval-comment"
              aria-label={t('approvals.comment')}
              placeholder={t('approvals.commentPlaceholder')}
              className={inputClass}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
            <div className="flex gap-1.5">
              <button
                type="button"
                data-testid="approval-approve"
                disabled={busy}
                className={`${btnSmall} bg-emerald-600 text-white ring-emerald-600 hover:bg-emerald-500`}
                onClick={() => onDecide({ id: a.id, action: 'approve', comment: comment.trim() })}
              >
                {t('approvals.approve')}
              </button>
              <button
                type="button"
                data-testid="approval-reject"
                disabled={busy}
                className={`${btnSmall} text-rose-700 ring-rose-300 hover:bg-rose-50`}
                onClick={() => onDecide({ id: a.id, action: 'reject', comment: comment.trim() })}
              >
                {t('approvals.reject')}
              </button>
            </div>
          </div>
        )}
        {pending && scope === 'mine' && (
          <button
            type="button"
            data-testid="approval-cancel"
            disabled={busy}
            className={btnSmall}
            onClick={() => onDecide({ id: a.id, action: 'cancel' })}
          >
            {t('approvals.cancel')}
          </button>
        )}
      </td>
    </tr>
  );
}

function ApprovalList({ scope, state }: { scope: ApprovalScope; state: ApprovalState | '' }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(approvalListQuery(scope, state));
  const decide = useMutation({
    mutationFn: (d: Decision) =>
      d.action === 'approve'
        ? approveApproval(d.id, d.comment)
        : d.action === 'reject'
          ? rejectApproval(d.id, d.comment)
          : cancelApproval(d.id),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: approvalKeys.all });
      // An approved grant changes the account's effective quota.
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="flex flex-col gap-3">
      {decide.isError && <FormError error={decide.error} message={decisionErrorMessage(decide.error, t)} />}
      {decide.isSuccess && (
        <SuccessNote testId="approval-decided">
          {t(`approvals.done.${decide.data.state}`, { defaultValue: t('approvals.done.other') })}
        </SuccessNote>
      )}
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('approvals.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={scope === 'review' ? t('approvals.emptyReview') : t('approvals.emptyMine')} />
      ) : (
        <>
          <div className={tableWrap}>
            <table className="min-w-full" data-testid="approval-table">
              <thead className="bg-slate-50">
                <tr>
                  <th className={th}>{t('approvals.kind')}</th>
                  <th className={th}>{t('approvals.account')}</th>
                  <th className={th}>{t('approvals.request')}</th>
                  <th className={th}>{t('approvals.requester')}</th>
                  <th className={th}>{t('approvals.reason')}</th>
                  <th className={th}>{t('approvals.stateColumn')}</th>
                  <th className={th} />
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <ApprovalRow key={a.id} a={a} scope={scope} busy={decide.isPending} onDecide={(d) => decide.mutate(d)} />
                ))}
              </tbody>
            </table>
          </div>
          <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />
        </>
      )}
    </div>
  );
}

export function ApprovalsPage() {
  const { t } = useTranslation();
  const { account } = useCurrentAccount();
  const [search] = useSearchParams();
  // The bell links here with ?scope=review when requests wait for one's decision.
  const [scope, setScope] = useState<ApprovalScope>(search.get('scope') === 'review' ? 'review' : 'mine');
  const [states, setStates] = useState<Record<ApprovalScope, ApprovalState | ''>>({ mine: '', review: 'pending' });
  const [requesting, setRequesting] = useState(false);
  const [created, setCreated] = useState<Approval | null>(null);
  const state = states[scope];
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader title={t('approvals.title')} subtitle={t('approvals.subtitle')} />
        <button type="button" data-testid="request-open" className={btnPrimary} onClick={() => setRequesting(true)}>
          {t('approvals.newRequest')}
        </button>
      </div>
      {created && (
        <SuccessNote testId="request-created">{t('request.created', { kind: t(`approvals.kinds.${created.kind}`) })}</SuccessNote>
      )}
      <Tabs
        label={t('approvals.title')}
        testIdPrefix="approvals-tab"
        value={scope}
        onChange={setScope}
        tabs={[
          { value: 'mine', label: t('approvals.mine') },
          { value: 'review', label: t('approvals.review') },
        ]}
      />
      <label className="inline-flex items-center gap-2 text-sm text-slate-600">
        {t('approvals.filterState')}
        <select
          data-testid="approvals-state"
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          value={state}
          onChange={(e) => setStates((s) => ({ ...s, [scope]: e.target.value as ApprovalState | '' }))}
        >
          <option value="">{t('approvals.allStates')}</option>
          {APPROVAL_STATES.map((s) => (
            <option key={s} value={s}>
              {t(`approvals.state.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <ApprovalList key={`${scope}:${state}`} scope={scope} state={state} />
      {requesting && (
        <Dialog title={t('approvals.newRequest')} onClose={() => setRequesting(false)} testId="request-dialog">
          <RequestForm
            account={account}
            onCancel={() => setRequesting(false)}
            onCreated={(a) => {
              setCreated(a);
              setRequesting(false);
              setScope('mine');
            }}
          />
        </Dialog>
      )}
    </div>
  );
}
