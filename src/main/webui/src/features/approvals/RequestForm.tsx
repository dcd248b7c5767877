import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createApproval } from '../../api/approvals';
import { fieldError } from '../../api/errors';
import type { Approval, ApprovalKind, ApprovalRequest } from '../../api/types';
import { Field, FormError } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { unitProblemText } from '../../components/common/quantityText';
import { QUOTA_LIMITS } from '../../lib/limits';
import { parseResourceAmount, resourceKind, type UnitProblem } from '../../lib/units';
import { unitKey } from '../../lib/units';
import { btnPrimary, btnSecondary, inputClass, inputInvalid } from '../../components/common/ui';
import { daysFrom, toLocalInputValue } from '../../lib/time';
import { useAcceleratorModels } from '../catalog/queries';
import { useMyProfile } from '../me/queries';
import { approvalKeys } from './queries';
import { buildApprovalRequest, type RequestFormValues } from './requestForm';

const KINDS: ApprovalKind[] = ['quota-grant', 'model-access', 'job-lock'];
/** The request fields this form has an input for: the server's errors for them appear under it. */
const SHOWN_FIELDS = new Set(['account', 'resource', 'amount', 'until', 'model', 'jobId', 'reason']);

export interface RequestFormProps {
  /** Fixes the kind (no kind selector). */
  kind?: ApprovalKind;
  /** Prefilled account slug. */
  account?: string | null;
  /** Extra resources to offer besides cpu, memory and the catalogue (e.g. the account's quota lines). */
  resources?: { key: string; label: string }[];
  /** Prefilled resource of a quota grant (else the first of `resources`). */
  initialResource?: string;
  /** Prefilled amount of a quota grant, a quantity such as "2" or "16Gi". */
  initialAmount?: string;
  /** Prefilled job of a job lock. */
  initialJobId?: string;
  /** Prefilled end of a quota grant or job lock (else a day from now). */
  initialUntil?: Date;
  onCreated: (approval: Approval) => void;
  onCancel?: () => void;
}

/** Form for a new approval request: quota grant, model access or job lock. */
export function RequestForm({
  kind: fixedKind,
  account,
  resources = [],
  initialResource,
  initialAmount,
  initialJobId,
  initialUntil,
  onCreated,
  onCancel,
}: RequestFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMyProfile();
  const models = useAcceleratorModels();
  const [values, setValues] = useState<RequestFormValues>(() => ({
    kind: fixedKind ?? 'quota-grant',
    account: account ?? '',
    resource: initialResource ?? resources[0]?.key ?? '',
    amount: initialAmount ?? '',
    until: toLocalInputValue(initialUntil ?? daysFrom(new Date(), 1)),
    model: '',
    jobId: initialJobId ?? '',
    reason: '',
  }));
  const [errors, setErrors] = useState<Record<string, UnitProblem>>({});
  const mutation = useMutation({
    mutationFn: (req: ApprovalRequest) => createApproval(req),
    onSuccess: (approval) => {
      void queryClient.invalidateQueries({ queryKey: approvalKeys.all });
      onCreated(approval);
    },
  });

  const set = <K extends keyof RequestFormValues>(key: K, value: RequestFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  // Resource choices: the given ones first, then cpu, memory and the catalogue.
  const options = new Map<string, string>();
  for (const r of resources) options.set(r.key, r.label);
  options.set('cpu', options.get('cpu') ?? t('quota.cpu'));
  options.set('memory', options.get('memory') ?? t('quota.memory'));
  for (const m of models.data?.items ?? []) if (!options.has(m.key)) options.set(m.key, m.displayName);
  // The prefilled resource stays choosable while the catalogue loads (or when it is not catalogued).
  if (initialResource && !options.has(initialResource)) options.set(initialResource, initialResource);

  const accounts = me.data?.accounts ?? [];
  const accountChoices =
    accounts.some((a) => a.slug === values.account) || values.account === ''
      ? accounts.map((a) => ({ slug: a.slug, name: a.name }))
      : [{ slug: values.account, name: values.account }, ...accounts.map((a) => ({ slug: a.slug, name: a.name }))];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { request, errors: found } = buildApprovalRequest(values);
    setErrors(found);
    if (request) mutation.mutate(request);
  };

  const err = (field: string, serverField = field) => {
    const local = errors[field];
    return local ? unitProblemText(t, local) : fieldError(mutation.error, serverField);
  };
  const cls = (field: string) => `${inputClass} ${err(field) ? inputInvalid : ''}`;
  const kind = values.kind;

  return (
    <form onSubmit={submit} noValidate data-testid="request-form" className="flex flex-col gap-4">
      {fixedKind === undefined && (
        <Field label={t('request.kind')}>
          <select
            data-testid="request-kind"
            className={inputClass}
            value={kind}
            onChange={(e) => set('kind', e.target.value as ApprovalKind)}
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`approvals.kinds.${k}`)}
              </option>
            ))}
          </select>
        </Field>
      )}
      {kind !== 'job-lock' && (
        <Field label={t('request.account')} error={err('account')}>
          <select
            data-testid="grant-account"
            className={cls('account')}
            value={values.account}
            onChange={(e) => set('account', e.target.value)}
          >
            {values.account === '' && <option value="">{t('request.chooseAccount')}</option>}
            {accountChoices.map((a) => (
              <option key={a.slug} value={a.slug}>
                {a.name} ({a.slug})
              </option>
            ))}
          </select>
        </Field>
      )}
      {kind === 'quota-grant' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('request.resource')} error={err('resource')}>
            <select
              data-testid="grant-resource"
              className={cls('resource')}
              value={values.resource}
              onChange={(e) => set('resource', e.target.value)}
            >
              {values.resource === '' && <option value="">{t('quota.chooseResource')}</option>}
              {[...options.entries()].map(([key, label]) => (
                <option key={key} value={key}>
                  {label} ({key})
                </option>
              ))}
            </select>
          </Field>
          <Field label={`${t('request.amount')} (${t(unitKey(values.resource))})`} hint={t('request.amountHint')}>
            <QuantityInput
              testId="grant-amount"
              value={values.amount}
              parse={(text) => parseResourceAmount(values.resource, text, QUOTA_LIMITS)}
              unitKey={resourceKind(values.resource) === 'memory' ? undefined : unitKey(values.resource)}
              error={err('amount')}
              onChange={(text) => set('amount', text)}
            />
          </Field>
        </div>
      )}
      {kind === 'model-access' && (
        <Field label={t('request.model')} error={err('model')}>
          <select data-testid="request-model" className={cls('model')} value={values.model} onChange={(e) => set('model', e.target.value)}>
            <option value="">{t('request.chooseModel')}</option>
            {(models.data?.items ?? []).map((m) => (
              <option key={m.key} value={m.key}>
                {m.displayName}
                {m.restricted ? ` · ${t('catalog.restricted')}` : ''}
              </option>
            ))}
          </select>
        </Field>
      )}
      {kind === 'job-lock' && (
        <Field label={t('request.jobId')} error={err('jobId')}>
          <input
            data-testid="request-job-id"
            className={cls('jobId')}
            value={values.jobId}
            onChange={(e) => set('jobId', e.target.value)}
          />
        </Field>
      )}
      {kind !== 'model-access' && (
        <Field label={t('request.until')} error={err('until')}>
          <input
            data-testid="grant-until"
            type="datetime-local"
            className={cls('until')}
            value={values.until}
            onChange={(e) => set('until', e.target.value)}
          />
        </Field>
      )}
      <Field label={t('request.reason')} error={err('reason')}>
        <textarea
          data-testid="grant-reason"
          rows={3}
          className={cls('reason')}
          value={values.reason}
          onChange={(e) => set('reason', e.target.value)}
        />
      </Field>
      {mutation.isError && <FormError error={mutation.error} shownFields={(f) => SHOWN_FIELDS.has(f)} />}
      <div className="flex justify-end gap-2">
        {onCancel && (
          <button type="button" className={btnSecondary} onClick={onCancel}>
            {t('common.cancel')}
          </button>
        )}
        <button type="submit" data-testid="grant-submit" className={btnPrimary} disabled={mutation.isPending}>
          {t('request.submit')}
        </button>
      </div>
    </form>
  );
}
