import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putAccountFeatures } from '../../api/accounts';
import { fieldError, isApiError } from '../../api/errors';
import type { AccountFeatures, AccountFeaturesUpdate } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError } from '../../components/common/Form';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, inputClass, inputInvalid, tableWrap, td, th } from '../../components/common/ui';
import { useCurrentUser } from '../auth/session';
import {
  BANDWIDTH_FIELDS,
  FEATURES,
  featuresToForm,
  formToFeatures,
  type BandwidthField,
  type FeaturesForm,
  type FeaturesFormErrors,
} from './featuresForm';
import { accountKeys, featuresQuery } from './queries';

function Source({ own }: { own: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`block text-xs ${own ? 'text-indigo-700' : 'text-slate-500'}`}>
      {own ? t('accounts.features.own') : t('accounts.features.platform')}
    </span>
  );
}

function FeaturesDialog({ slug, features, onClose }: { slug: string; features: AccountFeatures; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<FeaturesForm>(() => featuresToForm(features));
  const [errors, setErrors] = useState<FeaturesFormErrors>({});
  const mutation = useMutation({
    mutationFn: (body: AccountFeaturesUpdate) => putAccountFeatures(slug, body),
    onSuccess: (updated) => {
      queryClient.setQueryData(accountKeys.features(slug), updated);
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { body, errors: found } = formToFeatures(features, form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(body);
  };
  const setCap = (field: BandwidthField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((old) => ({ ...old, [field]: undefined }));
  };
  const capError = (field: BandwidthField) => {
    const local = errors[field];
    return local ? t(local) : fieldError(mutation.error, field);
  };

  return (
    <Dialog title={t('accounts.features.editTitle')} onClose={onClose} testId="features-dialog">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-500">{t('accounts.features.editHint')}</p>
        <fieldset className="flex flex-col gap-2">
          {FEATURES.map((name) => (
            <label key={name} className="flex items-center justify-between gap-3 text-sm">
              <span>
                <span className="block font-medium text-slate-800">{t(`accounts.features.names.${name}`)}</span>
                <span className="block text-xs text-slate-500">{t(`accounts.features.describe.${name}`)}</span>
              </span>
              <input
                type="checkbox"
                role="switch"
                data-testid={`feature-switch-${name}`}
                className="h-4 w-4"
                checked={form.switches[name] ?? true}
                onChange={(e) => setForm((f) => ({ ...f, switches: { ...f.switches, [name]: e.target.checked } }))}
              />
            </label>
          ))}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          {BANDWIDTH_FIELDS.map((field) => {
            const err = capError(field);
            return (
              <Field key={field} label={`${t(`accounts.features.${field}`)} (${t('accounts.features.bitsPerSecond')})`} error={err}>
                <input
                  data-testid={`features-input-${field}`}
                  className={`${inputClass} ${err ? inputInvalid : ''}`}
                  value={form[field]}
                  placeholder={features.effective[field] ?? t('accounts.features.noCap')}
                  aria-invalid={err ? true : undefined}
                  onChange={(e) => setCap(field, e.target.value)}
                />
              </Field>
            );
          })}
        </div>
        <p className="text-xs text-slate-500">{t('accounts.features.capHint')}</p>
        {mutation.isError && <FormError error={mutation.error} shownFields={(f) => (BANDWIDTH_FIELDS as readonly string[]).includes(f)} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="features-save" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function FeaturesTable({ features }: { features: AccountFeatures }) {
  const { t } = useTranslation();
  return (
    <div className={tableWrap}>
      <table className="min-w-full" data-testid="features-table">
        <thead className="bg-slate-50">
          <tr>
            <th className={th}>{t('accounts.features.feature')}</th>
            <th className={th}>{t('accounts.features.inForce')}</th>
          </tr>
        </thead>
        <tbody>
          {FEATURES.map((name) => {
            const on = features.effective.features[name] ?? true;
            return (
              <tr key={name} className="border-t border-slate-100">
                <td className={td}>
                  <span className="block font-medium text-slate-800">{t(`accounts.features.names.${name}`)}</span>
                  <span className="block text-xs text-slate-500">{t(`accounts.features.describe.${name}`)}</span>
                </td>
                <td className={td}>
                  <span
                    data-testid={`feature-${name}`}
                    data-on={on}
                    className={`block font-semibold ${on ? 'text-emerald-700' : 'text-rose-700'}`}
                  >
                    {on ? t('accounts.features.on') : t('accounts.features.off')}
                  </span>
                  <Source own={features.features[name] !== undefined} />
                </td>
              </tr>
            );
          })}
          {BANDWIDTH_FIELDS.map((field) => (
            <tr key={field} className="border-t border-slate-100">
              <td className={td}>
                <span className="block font-medium text-slate-800">{t(`accounts.features.${field}`)}</span>
                <span className="block text-xs text-slate-500">{t('accounts.features.bitsPerSecond')}</span>
              </td>
              <td className={td}>
                <span data-testid={`features-${field}`} className="block font-semibold tabular-nums text-slate-900">
                  {features.effective[field] ?? t('accounts.features.noCap')}
                </span>
                <Source own={features[field] !== null} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What the account's members may use and the caps on its pods' traffic; platform admins change them. */
export function FeaturesSection({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const platformAdmin = useCurrentUser().role === 'admin';
  const query = useQuery(featuresQuery(slug));
  const [editing, setEditing] = useState(false);
  // Only members and platform admins may read them: for anyone else the section is left out.
  if (query.isError && isApiError(query.error) && query.error.status === 403) return null;
  const untouched =
    query.isSuccess &&
    Object.keys(query.data.features).length === 0 &&
    query.data.ingressBandwidth === null &&
    query.data.egressBandwidth === null;

  return (
    <section aria-labelledby="features-heading" data-testid="features" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="features-heading" className="text-lg font-semibold text-slate-800">
          {t('accounts.features.title')}
        </h2>
        {platformAdmin && query.isSuccess && (
          <button type="button" data-testid="features-edit" className={btnSecondary} onClick={() => setEditing(true)}>
            {t('accounts.features.edit')}
          </button>
        )}
      </div>
      <p className="text-sm text-slate-500">{t('accounts.features.hint')}</p>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('accounts.features.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          {untouched && (
            <p data-testid="features-defaults" className="text-sm text-slate-600">
              {t('accounts.features.allDefaults')}
            </p>
          )}
          <FeaturesTable features={query.data} />
        </>
      )}
      {editing && query.isSuccess && <FeaturesDialog slug={slug} features={query.data} onClose={() => setEditing(false)} />}
    </section>
  );
}
