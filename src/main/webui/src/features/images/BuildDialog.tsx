import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createImageBuild } from '../../api/imageBuilds';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError, Tabs } from '../../components/common/Form';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { myCredentialsQuery } from '../me/queries';
import {
  buildFieldError,
  checkBuildForm,
  createBuildBody,
  emptyBuildForm,
  isBuildField,
  registryCredentials,
  type BuildFormValues,
} from './buildForm';
import { IMAGE_KINDS } from './imageForm';
import { buildKeys } from './queries';

/** Starts an image build, from a base image with packages or from a Dockerfile; closes on success (`onStarted`). */
export function BuildDialog({ onClose, onStarted }: { onClose: () => void; onStarted: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [v, setV] = useState(emptyBuildForm);
  const [checked, setChecked] = useState(false);
  const creds = useQuery(myCredentialsQuery());
  const errors = checked ? checkBuildForm(v) : {};
  const start = useMutation({
    mutationFn: () => createImageBuild(createBuildBody(v)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: buildKeys.all });
      onStarted();
    },
  });
  const set = (k: keyof BuildFormValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const err = (k: keyof BuildFormValues) => (errors[k] ? t(`imageBuilds.form.error.${errors[k]}`) : buildFieldError(start.error, k, v));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(checkBuildForm(v)).length === 0) start.mutate();
  };
  const registries = registryCredentials(creds.data?.items ?? []);
  return (
    <Dialog title={t('imageBuilds.form.title')} onClose={onClose} testId="build-dialog" wide>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <Tabs
          label={t('imageBuilds.form.mode')}
          tabs={[
            { value: 'packages', label: t('imageBuilds.form.modePackages') },
            { value: 'dockerfile', label: t('imageBuilds.form.modeDockerfile') },
          ]}
          value={v.mode}
          onChange={(mode) => setV({ ...v, mode })}
          testIdPrefix="build-mode"
        />
        {v.mode === 'packages' ? (
          <>
            <Field label={t('imageBuilds.form.base')} error={err('base')} hint={t('imageBuilds.form.baseHint')}>
              <input className={`${inputClass} font-mono`} value={v.base} onChange={set('base')} data-testid="build-base" />
            </Field>
            <div className="grid grid-cols-2 gap-3">
              <Field label={t('imageBuilds.form.pip')} error={err('pip')} hint={t('imageBuilds.form.pipHint')}>
                <textarea className={`${inputClass} font-mono`} rows={4} value={v.pip} onChange={set('pip')} data-testid="build-pip" />
              </Field>
              <Field label={t('imageBuilds.form.apt')} error={err('apt')} hint={t('imageBuilds.form.aptHint')}>
                <textarea className={`${inputClass} font-mono`} rows={4} value={v.apt} onChange={set('apt')} data-testid="build-apt" />
              </Field>
            </div>
          </>
        ) : (
          <Field label={t('imageBuilds.form.dockerfile')} error={err('dockerfile')} hint={t('imageBuilds.form.dockerfileHint')}>
            <textarea
              className={`${inputClass} font-mono`}
              rows={10}
              value={v.dockerfile}
              onChange={set('dockerfile')}
              data-testid="build-dockerfile"
            />
          </Field>
        )}
        <div className="grid grid-cols-2 gap-3">
          <Field label={t('imageBuilds.form.destination')} error={err('destination')} hint={t('imageBuilds.form.destinationHint')}>
            <input
              className={`${inputClass} font-mono`}
              value={v.destination}
              onChange={set('destination')}
              data-testid="build-destination"
            />
          </Field>
          <Field
            label={t('imageBuilds.form.credential')}
            error={err('credential') ?? (creds.isError ? t('imageBuilds.form.credentialsError') : undefined)}
            hint={registries.length === 0 && creds.isSuccess ? t('imageBuilds.form.noCredentials') : t('imageBuilds.form.credentialHint')}
          >
            <select className={inputClass} value={v.credential} onChange={set('credential')} data-testid="build-credential">
              <option value="">{creds.isPending ? t('common.loading') : t('imageBuilds.form.noCredential')}</option>
              {registries.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.host ? `${c.name} (${c.host})` : c.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label={t('imageBuilds.form.description')} error={err('description')}>
          <textarea className={inputClass} value={v.description} onChange={set('description')} rows={2} data-testid="build-description" />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label={t('images.form.cudaVersion')} error={err('cudaVersion')} hint={t('images.form.cudaHint')}>
            <input className={inputClass} value={v.cudaVersion} onChange={set('cudaVersion')} data-testid="build-cuda" />
          </Field>
          <Field label={t('images.form.vendors')} error={err('vendors')} hint={t('images.form.vendorsHint')}>
            <input className={inputClass} value={v.vendors} onChange={set('vendors')} data-testid="build-vendors" />
          </Field>
        </div>
        <fieldset>
          <legend className="mb-1 block text-sm font-medium text-slate-700">{t('images.form.kinds')}</legend>
          <div className="flex flex-wrap gap-3">
            {IMAGE_KINDS.map((k) => (
              <label key={k} className="flex items-center gap-1 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={v.kinds.includes(k)}
                  onChange={() => setV({ ...v, kinds: v.kinds.includes(k) ? v.kinds.filter((x) => x !== k) : [...v.kinds, k] })}
                  data-testid={`build-kind-${k}`}
                />
                {k}
              </label>
            ))}
          </div>
          {err('kinds') && (
            <span role="alert" className="mt-1 block text-xs text-rose-700">
              {err('kinds')}
            </span>
          )}
        </fieldset>
        <p className="text-xs text-slate-500">{t('imageBuilds.form.jobNote')}</p>
        <FormError error={start.error} shownFields={isBuildField} />
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={btnPrimary} disabled={start.isPending} data-testid="build-start">
            {start.isPending ? t('imageBuilds.form.starting') : t('imageBuilds.form.start')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
