import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putDefaultLimits, putMemberLimits } from '../../api/accounts';
import type { Limits } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { fieldError } from '../../api/errors';
import { Field, FormError } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { unitProblemText } from '../../components/common/quantityText';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary } from '../../components/common/ui';
import { resourceKind } from '../../lib/units';
import { unitKey } from '../../lib/units';
import { accountKeys, defaultLimitsQuery, limitsQuery } from './queries';
import {
  formToLimits,
  isLimitsField,
  limitsToForm,
  parseLimitAmount,
  parseLimitCount,
  type LimitsForm,
  type LimitsFormErrors,
} from './limitsForm';

interface LimitsDialogProps {
  slug: string;
  /** null edits the account default; a username edits that member's override. */
  username: string | null;
  /** Resource keys to offer (the account's quota resources). */
  resources: { key: string; label: string }[];
  canEdit: boolean;
  onClose: () => void;
}

function LimitsEditor({ props, initial, defaults }: { props: LimitsDialogProps; initial: Limits; defaults: Limits | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { slug, username, resources, canEdit, onClose } = props;
  const [form, setForm] = useState<LimitsForm>(() =>
    limitsToForm(
      initial,
      resources.map((r) => r.key),
    ),
  );
  const [errors, setErrors] = useState<LimitsFormErrors>({});
  const mutation = useMutation({
    mutationFn: (limits: Limits) => (username === null ? putDefaultLimits(slug, limits) : putMemberLimits(slug, username, limits)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.detail(slug) });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { limits, errors: found } = formToLimits(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(limits);
  };
  const inherit = username !== null;
  const placeholder = (value: string | number | null | undefined) =>
    inherit ? (value === null || value === undefined ? t('limits.inheritNone') : t('limits.inheritValue', { value })) : t('limits.none');
  const labels = new Map(resources.map((r) => [r.key, r.label]));
  // The console's own check first; else what the server said about this field.
  const errorFor = (path: string) => {
    const local = errors[path];
    return local ? unitProblemText(t, local) : fieldError(mutation.error, path);
  };
  const keys = Object.keys(form.resources);

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <p className="text-sm text-slate-500">{inherit ? t('limits.memberHint') : t('limits.defaultHint')}</p>
      {keys.length === 0 && <p className="text-sm text-slate-500">{t('limits.noResources')}</p>}
      <div className="grid gap-3 sm:grid-cols-2">
        {keys.map((key) => {
          const err = errorFor(`resources.${key}`);
          return (
            <Field key={key} label={`${labels.get(key) ?? key} (${t(unitKey(key))})`}>
              <QuantityInput
                testId={`limit-resource-${key}`}
                value={form.resources[key] ?? ''}
                parse={(text) => parseLimitAmount(key, text)}
                unitKey={resourceKind(key) === 'memory' ? undefined : unitKey(key)}
                error={err}
                disabled={!canEdit}
                placeholder={placeholder(defaults?.resources?.[key])}
                onChange={(text) => setForm((f) => ({ ...f, resources: { ...f.resources, [key]: text } }))}
              />
            </Field>
          );
        })}
        <Field label={t('limits.maxRunningJobs')}>
          <QuantityInput
            testId="limit-max-running-jobs"
            inputMode="numeric"
            value={form.maxRunningJobs}
            parse={parseLimitCount}
            error={errorFor('maxRunningJobs')}
            disabled={!canEdit}
            placeholder={placeholder(defaults?.maxRunningJobs)}
            onChange={(text) => setForm((f) => ({ ...f, maxRunningJobs: text }))}
          />
        </Field>
        <Field label={t('limits.maxInteractiveSessions')}>
          <QuantityInput
            testId="limit-max-sessions"
            inputMode="numeric"
            value={form.maxInteractiveSessions}
            parse={parseLimitCount}
            error={errorFor('maxInteractiveSessions')}
            disabled={!canEdit}
            placeholder={placeholder(defaults?.maxInteractiveSessions)}
            onChange={(text) => setForm((f) => ({ ...f, maxInteractiveSessions: text }))}
          />
        </Field>
      </div>
      {mutation.isError && <FormError error={mutation.error} shownFields={isLimitsField} />}
      <div className="flex justify-end gap-2">
        <button type="button" className={btnSecondary} onClick={onClose}>
          {canEdit ? t('common.cancel') : t('common.close')}
        </button>
        {canEdit && (
          <button type="submit" data-testid="limits-save" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.save')}
          </button>
        )}
      </div>
    </form>
  );
}

/** Dialog editing the account's default member limits or one member's override. */
export function LimitsDialog(props: LimitsDialogProps) {
  const { t } = useTranslation();
  const { slug, username, onClose } = props;
  const own = useQuery(limitsQuery(slug, username));
  const defaults = useQuery({ ...defaultLimitsQuery(slug), enabled: username !== null });
  const title = username === null ? t('limits.defaultTitle') : t('limits.memberTitle', { username });
  return (
    <Dialog title={title} onClose={onClose} testId="limits-dialog">
      {own.isPending ? (
        <LoadingState />
      ) : own.isError ? (
        <ErrorState title={t('limits.loadError')} error={own.error} onRetry={() => void own.refetch()} />
      ) : (
        <LimitsEditor props={props} initial={own.data} defaults={username === null ? undefined : defaults.data} />
      )}
    </Dialog>
  );
}
