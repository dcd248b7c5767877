import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putAllotment, removeAllotment } from '../../api/accounting';
import { fieldError } from '../../api/errors';
import type { Allotment, AllotmentList } from '../../api/types';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { FormError } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { unitProblemText } from '../../components/common/quantityText';
import { ResourceBar } from '../../components/common/ResourceBar';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, btnSmall, tableWrap, td, th } from '../../components/common/ui';
import { moneyText, parseMoneyIn } from './money';
import { perPeriod, thisPeriod } from './period';
import { accountingKeys, allotmentsQuery } from './queries';

/** The form that sets one member's allotment, in that member's row. */
function AllotmentForm({ slug, list, row, onDone }: { slug: string; list: AllotmentList; row: Allotment; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(row.amount ?? '');
  const [localError, setLocalError] = useState<string | undefined>(undefined);
  const parse = parseMoneyIn(list.currency);
  const mutation = useMutation({
    mutationFn: (value: string) => putAllotment(slug, row.user, value),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountingKeys.allotments(slug) });
      onDone();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parse(amount);
    if (!parsed.ok) {
      setLocalError(unitProblemText(t, parsed.problem));
      return;
    }
    mutation.mutate(parsed.api);
  };
  const period = list.budget ? perPeriod(t, list.budget) : t('accounting.period.month');
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-2" data-testid="allotment-form">
      <label className="text-xs text-slate-600" htmlFor={`allotment-${row.user}`}>
        {t('accounting.allotments.amountLabel', { user: row.user, period, currency: list.currency })}
      </label>
      <QuantityInput
        id={`allotment-${row.user}`}
        testId="allotment-amount"
        value={amount}
        parse={parse}
        error={localError ?? fieldError(mutation.error, 'amount')}
        onChange={(text) => {
          setAmount(text);
          setLocalError(undefined);
        }}
      />
      {mutation.isError && <FormError error={mutation.error} shownFields={(f) => f === 'amount'} />}
      <div className="flex gap-2">
        <button type="submit" className={btnPrimary} data-testid="allotment-save" disabled={mutation.isPending}>
          {t('accounting.allotments.save')}
        </button>
        <button type="button" className={btnSecondary} onClick={onDone}>
          {t('accounting.allotments.cancel')}
        </button>
      </div>
    </form>
  );
}

/** One member's row: amount, spent, left, a bar of the share used, and (for admins) set, change and remove. */
function AllotmentRow({ slug, list, row }: { slug: string; list: AllotmentList; row: Allotment }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () => removeAllotment(slug, row.user),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountingKeys.allotments(slug) }),
  });
  const none = row.amountMicros === null;
  return (
    <tr className="border-t border-slate-100 align-top" data-testid="allotment-row" data-user={row.user}>
      <td className={td}>{row.user}</td>
      <td className={`${td} text-right tabular-nums`} data-testid="allotment-cell-amount">
        {none ? <span className="text-slate-500">{t('accounting.allotments.none')}</span> : moneyText(row.amountMicros ?? 0, list.currency)}
      </td>
      <td className={`${td} text-right tabular-nums`}>{moneyText(row.spentMicros, list.currency)}</td>
      <td className={`${td} text-right tabular-nums ${(row.leftMicros ?? 0) < 0 ? 'text-rose-700' : ''}`} data-testid="allotment-cell-left">
        {row.leftMicros === null ? t('accounting.allotments.noneLeft') : moneyText(row.leftMicros, list.currency)}
      </td>
      <td className={`${td} w-40`}>
        {row.usedPercent !== null && (
          <ResourceBar used={Math.min(100, row.usedPercent)} total={100} label={t('accounting.allotments.usedLabel')} size="sm" />
        )}
      </td>
      <td className={td}>
        {editing ? (
          <AllotmentForm slug={slug} list={list} row={row} onDone={() => setEditing(false)} />
        ) : (
          <div className="flex gap-2">
            <button type="button" className={btnSmall} data-testid="allotment-edit" onClick={() => setEditing(true)}>
              {none ? t('accounting.allotments.set') : t('accounting.allotments.change')}
            </button>
            {!none && (
              <ConfirmButton testId="allotment-remove" onConfirm={() => remove.mutate()} disabled={remove.isPending}>
                {t('accounting.allotments.remove')}
              </ConfirmButton>
            )}
          </div>
        )}
        {remove.isError && (
          <p className="text-xs text-rose-700" role="alert">
            {t('accounting.allotments.removeError')}
          </p>
        )}
      </td>
    </tr>
  );
}

function AdminTable({ slug, list }: { slug: string; list: AllotmentList }) {
  const { t } = useTranslation();
  const b = list.budget;
  if (b === null) return null;
  const period = perPeriod(t, b);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-slate-500">{t('accounting.allotments.hint', { period })}</p>
      <p className="text-sm text-slate-700" data-testid="allotments-total">
        {t('accounting.allotments.allotted', {
          allotted: moneyText(list.allottedMicros, list.currency),
          budget: moneyText(b.amountMicros, list.currency),
          period,
        })}
      </p>
      <div className={tableWrap}>
        <table className="min-w-full" data-testid="allotments-table">
          <thead className="bg-slate-50">
            <tr>
              <th className={th}>{t('accounting.allotments.member')}</th>
              <th className={`${th} text-right`}>{t('accounting.allotments.amount')}</th>
              <th className={`${th} text-right`}>{t('accounting.allotments.spent')}</th>
              <th className={`${th} text-right`}>{t('accounting.allotments.left')}</th>
              <th className={th}>{t('accounting.allotments.used')}</th>
              <th className={th} />
            </tr>
          </thead>
          <tbody>
            {list.items.map((row) => (
              <AllotmentRow key={row.user} slug={slug} list={list} row={row} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A member's own allotment in one sentence and a bar. */
function OwnAllotment({ list }: { list: AllotmentList }) {
  const { t } = useTranslation();
  const row = list.items[0];
  const period = list.budget ? thisPeriod(t, list.budget) : t('accounting.period.month');
  if (!row || row.amountMicros === null || row.leftMicros === null) {
    return (
      <p className="text-sm text-slate-700" data-testid="allotment-own">
        {t('accounting.allotments.ownNone')}
      </p>
    );
  }
  const values = {
    amount: moneyText(row.amountMicros, list.currency),
    left: moneyText(row.leftMicros, list.currency),
    spent: moneyText(row.spentMicros, list.currency),
    period,
  };
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm text-slate-700" data-testid="allotment-own" data-over={row.leftMicros <= 0}>
        {row.leftMicros <= 0 ? t('accounting.allotments.ownOver', values) : t('accounting.allotments.own', values)}
      </p>
      {row.usedPercent !== null && (
        <ResourceBar used={Math.min(100, row.usedPercent)} total={100} label={t('accounting.allotments.usedLabel')} />
      )}
    </div>
  );
}

/**
 * Allotments per member inside the account's budget: its admins see and set every member's; a member sees their own
 * and what is left of it.
 */
export function AllotmentsPanel({ slug, admin }: { slug: string; admin: boolean }) {
  const { t } = useTranslation();
  const query = useQuery(allotmentsQuery(slug));
  return (
    <div className="flex flex-col gap-2" data-testid="allotments">
      <h3 className="text-sm font-semibold text-slate-800">{t('accounting.allotments.title')}</h3>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('accounting.allotments.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.budget === null ? (
        <EmptyState title={t('accounting.allotments.noBudget')} />
      ) : !admin ? (
        <OwnAllotment list={query.data} />
      ) : query.data.items.length === 0 ? (
        <EmptyState title={t('accounting.allotments.empty')} />
      ) : (
        <AdminTable slug={slug} list={query.data} />
      )}
    </div>
  );
}
