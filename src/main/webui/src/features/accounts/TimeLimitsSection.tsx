import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putTimeLimits } from '../../api/accounts';
import { fieldError, isApiError } from '../../api/errors';
import type { TimeLimitField, TimeLimits, TimeLimitsUpdate } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, tableWrap, td, th } from '../../components/common/ui';
import { useCurrentUser } from '../auth/session';
import { accountKeys, timeLimitsQuery } from './queries';
import {
  formToTimeLimits,
  TIME_LIMIT_FIELDS,
  parseTimeLimit,
  timeLimitsToForm,
  type TimeLimitsForm,
  type TimeLimitsFormErrors,
} from './timeLimitsForm';

const ROWS = [
  { kind: 'interactive', defaultField: 'interactiveDefault', maxField: 'interactiveMax' },
  { kind: 'batch', defaultField: 'batchDefault', maxField: 'batchMax' },
] as const satisfies readonly { kind: string; defaultField: TimeLimitField; maxField: TimeLimitField }[];

function LimitCell({ limits, field }: { limits: TimeLimits; field: TimeLimitField }) {
  const { t } = useTranslation();
  const own = limits[field] !== null;
  return (
    <td className={td}>
      <span
        data-testid={`time-limit-${field}`}
        data-source={own ? 'account' : 'platform'}
        className="block font-semibold tabular-nums text-slate-900"
      >
        {limits.effective[field]}
      </span>
      <span className={`block text-xs ${own ? 'text-indigo-700' : 'text-slate-500'}`}>
        {own ? t('accounts.timeLimits.own') : t('accounts.timeLimits.platform')}
      </span>
    </td>
  );
}

function TimeLimitsDialog({ slug, limits, onClose }: { slug: string; limits: TimeLimits; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TimeLimitsForm>(() => timeLimitsToForm(limits));
  const [errors, setErrors] = useState<TimeLimitsFormErrors>({});
  const mutation = useMutation({
    mutationFn: (body: TimeLimitsUpdate) => putTimeLimits(slug, body),
    onSuccess: (updated) => {
      queryClient.setQueryData(accountKeys.timeLimits(slug), updated);
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { body, errors: found } = formToTimeLimits(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(body);
  };
  const update = (field: TimeLimitField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    // An edited field is checked again on save; until then its old message would mislead.
    setErrors((old) => ({ ...old, [field]: undefined }));
  };
  const errorFor = (field: TimeLimitField) => {
    const local = errors[field];
    return local ? t(local) : fieldError(mutation.error, field);
  };

  return (
    <Dialog title={t('accounts.timeLimits.editTitle')} onClose={onClose} testId="time-limits-dialog">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-500">{t('accounts.timeLimits.editHint')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {TIME_LIMIT_FIELDS.map((field) => {
            const err = errorFor(field);
            return (
              <Field key={field} label={`${t(`accounts.timeLimits.fields.${field}`)} (${t('units.hours')})`}>
                <QuantityInput
                  testId={`time-limits-input-${field}`}
                  value={form[field]}
                  parse={parseTimeLimit}
                  error={err}
                  placeholder={limits[field] === null ? limits.effective[field] : t('accounts.timeLimits.platformPlaceholder')}
                  onChange={(text) => update(field, text)}
                />
              </Field>
            );
          })}
        </div>
        {mutation.isError && <FormError error={mutation.error} shownFields={(f) => (TIME_LIMIT_FIELDS as readonly string[]).includes(f)} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="time-limits-save" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The account's job run times in force (its own or the platform's); platform admins may change them. */
export function TimeLimitsSection({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const platformAdmin = useCurrentUser().role === 'admin';
  const query = useQuery(timeLimitsQuery(slug));
  const [editing, setEditing] = useState(false);
  // Only members and platform admins may read the limits: for anyone else the section is left out.
  if (query.isError && isApiError(query.error) && query.error.status === 403) return null;

  return (
    <section aria-labelledby="time-limits-heading" data-testid="time-limits" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="time-limits-heading" className="text-lg font-semibold text-slate-800">
          {t('accounts.timeLimits.title')}
        </h2>
        {platformAdmin && query.isSuccess && (
          <button type="button" data-testid="time-limits-edit" className={btnSecondary} onClick={() => setEditing(true)}>
            {t('accounts.timeLimits.edit')}
          </button>
        )}
      </div>
      <p className="text-sm text-slate-500">{t('accounts.timeLimits.hint')}</p>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('accounts.timeLimits.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div className={tableWrap}>
          <table className="min-w-full" data-testid="time-limits-table">
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('accounts.timeLimits.jobs')}</th>
                <th className={th}>{t('accounts.timeLimits.default')}</th>
                <th className={th}>{t('accounts.timeLimits.max')}</th>
              </tr>
            </thead>
            <tbody>
              {ROWS.map((row) => (
                <tr key={row.kind} className="border-t border-slate-100">
                  <td className={td}>
                    <span className="block font-medium text-slate-800">{t(`accounts.timeLimits.kinds.${row.kind}`)}</span>
                    <span className="block text-xs text-slate-500">{t(`accounts.timeLimits.kindJobs.${row.kind}`)}</span>
                  </td>
                  <LimitCell limits={query.data} field={row.defaultField} />
                  <LimitCell limits={query.data} field={row.maxField} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && query.isSuccess && <TimeLimitsDialog slug={slug} limits={query.data} onClose={() => setEditing(false)} />}
    </section>
  );
}
