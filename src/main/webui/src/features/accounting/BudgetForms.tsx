import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putBudget, topUpBudget } from '../../api/accounting';
import { fieldError } from '../../api/errors';
import type { BudgetPeriod, BudgetPolicy, BudgetRenewal, BudgetUpdate, BudgetView, TopUp } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { unitProblemText } from '../../components/common/quantityText';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { parseDuration } from '../../lib/units';
import { randomUuid } from '../../lib/uuid';
import { parseMoneyIn } from './money';
import { accountingKeys } from './queries';

const PERIODS: readonly BudgetPeriod[] = ['month', 'week', 'custom'];
const POLICIES: readonly BudgetPolicy[] = ['hard', 'soft', 'stop'];
const RENEWALS: readonly BudgetRenewal[] = ['reset', 'carry', 'debt'];
/** The longest custom period the server takes, in days. */
const MAX_DAYS = 366;

/** After a change: the answer is the new budget view; the ledger and reports have new entries. */
function useSaved(slug: string, onClose: () => void) {
  const queryClient = useQueryClient();
  return (view: BudgetView) => {
    queryClient.setQueryData(accountingKeys.budget(slug), view);
    void queryClient.invalidateQueries({ queryKey: accountingKeys.ledger(slug) });
    void queryClient.invalidateQueries({ queryKey: accountingKeys.allotments(slug) });
    onClose();
  };
}

function Choice<T extends string>({
  name,
  options,
  value,
  onChange,
  explain,
}: {
  name: string;
  options: readonly T[];
  value: T;
  onChange: (v: T) => void;
  explain: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="flex flex-col gap-1.5" data-testid={`budget-${name}`}>
      <legend className="mb-1 text-sm font-medium text-slate-700">{t(`accounting.budgetForm.${name}`)}</legend>
      {options.map((o) => (
        <label key={o} className="flex items-start gap-2 text-sm text-slate-700">
          <input
            type="radio"
            name={name}
            value={o}
            checked={value === o}
            onChange={() => onChange(o)}
            className="mt-1"
            data-testid={`budget-${name}-${o}`}
          />
          <span>
            <span className="font-medium">{t(`accounting.${name}.${o}`)}</span>
            {explain && <span className="block text-xs text-slate-500">{t(`accounting.${name}Meaning.${o}`)}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** Platform admins: set the account's budget. Saving starts its period at the amount. */
export function SetBudgetDialog({ slug, view, onClose }: { slug: string; view: BudgetView; onClose: () => void }) {
  const { t } = useTranslation();
  const b = view.budget;
  const [amount, setAmount] = useState(b?.amount ?? '');
  const [period, setPeriod] = useState<BudgetPeriod>(b?.period ?? 'month');
  const [days, setDays] = useState(b?.periodDays ? String(b.periodDays) : '30');
  const [policy, setPolicy] = useState<BudgetPolicy>(b?.policy ?? 'hard');
  const [renewal, setRenewal] = useState<BudgetRenewal>(b?.renewal ?? 'reset');
  const [localError, setLocalError] = useState<string | undefined>(undefined);
  const [daysError, setDaysError] = useState<string | undefined>(undefined);
  const parse = parseMoneyIn(view.currency);
  const mutation = useMutation({
    mutationFn: (body: BudgetUpdate) => putBudget(slug, body),
    onSuccess: useSaved(slug, onClose),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parse(amount);
    if (!parsed.ok) {
      setLocalError(unitProblemText(t, parsed.problem));
      return;
    }
    if (period !== 'custom') {
      mutation.mutate({ amount: parsed.api, period, policy, renewal });
      return;
    }
    const length = parseDuration(days, MAX_DAYS * 86_400, 'd');
    if (!length.ok || length.value % 86_400 !== 0) {
      setDaysError(length.ok ? t('accounting.budgetForm.wholeDays') : unitProblemText(t, length.problem));
      return;
    }
    mutation.mutate({ amount: parsed.api, period, days: length.value / 86_400, policy, renewal });
  };
  const shown = (f: string) => ['amount', 'period', 'days', 'policy', 'renewal'].includes(f);
  return (
    <Dialog title={t('accounting.budgetForm.title')} onClose={onClose} testId="budget-dialog" wide>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-500">{t('accounting.budgetForm.hint')}</p>
        <Field label={t('accounting.budgetForm.amount', { currency: view.currency })}>
          <QuantityInput
            testId="budget-amount"
            value={amount}
            parse={parse}
            error={localError ?? fieldError(mutation.error, 'amount')}
            onChange={(text) => {
              setAmount(text);
              setLocalError(undefined);
            }}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <Choice name="period" options={PERIODS} value={period} onChange={setPeriod} explain={false} />
            <FieldMessage text={fieldError(mutation.error, 'period')} />
            {period === 'custom' && (
              <label className="mt-2 flex flex-col gap-1 text-sm text-slate-700">
                <span>{t('accounting.budgetForm.days')}</span>
                <input
                  className={inputClass}
                  data-testid="budget-days"
                  inputMode="numeric"
                  value={days}
                  onChange={(e) => {
                    setDays(e.target.value);
                    setDaysError(undefined);
                  }}
                />
                <FieldMessage text={daysError ?? fieldError(mutation.error, 'days')} />
              </label>
            )}
          </div>
          <div>
            <Choice name="policy" options={POLICIES} value={policy} onChange={setPolicy} explain />
            <FieldMessage text={fieldError(mutation.error, 'policy')} />
          </div>
          <div>
            <Choice name="renewal" options={RENEWALS} value={renewal} onChange={setRenewal} explain />
            <FieldMessage text={fieldError(mutation.error, 'renewal')} />
          </div>
        </div>
        {mutation.isError && <FormError error={mutation.error} shownFields={shown} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="budget-save" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function FieldMessage({ text }: { text: string | undefined }) {
  if (text === undefined) return null;
  return (
    <span role="alert" className="mt-1 block text-xs text-rose-700">
      {text}
    </span>
  );
}

/**
 * Platform admins: top the budget up. The form's Idempotency-Key stays the same while its fields do, so
 * submitting again after a lost answer posts the top-up once; an edited form is a new top-up with a new key.
 */
export function TopUpDialog({ slug, currency, onClose }: { slug: string; currency: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [key, setKey] = useState(randomUuid);
  const [localError, setLocalError] = useState<string | undefined>(undefined);
  const parse = parseMoneyIn(currency);
  const mutation = useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: TopUp; idempotencyKey: string }) => topUpBudget(slug, body, idempotencyKey),
    onSuccess: useSaved(slug, onClose),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parse(amount);
    if (!parsed.ok) {
      setLocalError(unitProblemText(t, parsed.problem));
      return;
    }
    mutation.mutate({ body: { amount: parsed.api, note: note.trim() }, idempotencyKey: key });
  };
  return (
    <Dialog title={t('accounting.topUp.title')} onClose={onClose} testId="top-up-dialog">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-500">{t('accounting.topUp.hint')}</p>
        <Field label={t('accounting.topUp.amount', { currency })}>
          <QuantityInput
            testId="top-up-amount"
            value={amount}
            parse={parse}
            error={localError ?? fieldError(mutation.error, 'amount')}
            onChange={(text) => {
              setAmount(text);
              setLocalError(undefined);
              setKey(randomUuid());
            }}
          />
        </Field>
        <Field label={t('accounting.topUp.note')} hint={t('accounting.topUp.noteHint')} error={fieldError(mutation.error, 'note')}>
          <input
            data-testid="top-up-note"
            className={inputClass}
            value={note}
            maxLength={200}
            onChange={(e) => {
              setNote(e.target.value);
              setKey(randomUuid());
            }}
          />
        </Field>
        {mutation.isError && <FormError error={mutation.error} shownFields={(f) => f === 'amount' || f === 'note'} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="top-up-save" className={btnPrimary} disabled={mutation.isPending}>
            {t('accounting.topUp.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
