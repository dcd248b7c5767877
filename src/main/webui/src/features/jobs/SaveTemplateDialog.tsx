import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fieldError } from '../../api/errors';
import { MAX_TEMPLATE_NAME } from '../../lib/limits';
import { saveJobAsTemplate } from '../../api/jobs';
import type { JobSummary, SaveJobAsTemplate, TemplateVisibility } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError, SuccessNote } from '../../components/common/Form';
import { btnPrimary, btnSecondary, inputClass, inputInvalid } from '../../components/common/ui';

const VISIBILITIES: readonly TemplateVisibility[] = ['private', 'account', 'public'];

/** The request body: trimmed texts; an `account` template is shared with the job's account. */
function saveTemplateBody(form: { name: string; description: string; visibility: TemplateVisibility }, account: string): SaveJobAsTemplate {
  const body: SaveJobAsTemplate = { name: form.name.trim(), description: form.description.trim(), visibility: form.visibility };
  if (form.visibility === 'account') body.account = account;
  return body;
}

/** Saves the job's spec as a new template (without parameters). */
export function SaveTemplateDialog({ job, onClose }: { job: JobSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(job.name);
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<TemplateVisibility>('private');
  const mutation = useMutation({
    mutationFn: () => saveJobAsTemplate(job.id, saveTemplateBody({ name, description, visibility }, job.account)),
  });
  const empty = name.trim() === '';
  // Longer than the server takes: said with the limit while typing, never cut.
  const tooLong = name.trim().length > MAX_TEMPLATE_NAME;
  const nameError = empty
    ? t('jobs.actions.templateNameRequired')
    : tooLong
      ? t('units.tooLong', { max: MAX_TEMPLATE_NAME, count: name.trim().length })
      : fieldError(mutation.error, 'name');

  return (
    <Dialog title={t('jobs.actions.saveTemplateTitle', { name: job.name })} onClose={onClose} testId="job-save-template-dialog">
      {mutation.isSuccess ? (
        <div className="flex flex-col gap-4">
          <SuccessNote testId="job-template-saved">
            {t('jobs.actions.templateSaved', { name: mutation.data.name })}{' '}
            <Link to="/templates" data-testid="job-template-saved-link" className="font-medium underline">
              {t('jobs.actions.openTemplates')}
            </Link>
          </SuccessNote>
          <div className="flex justify-end">
            <button type="button" className={btnSecondary} onClick={onClose}>
              {t('common.done')}
            </button>
          </div>
        </div>
      ) : (
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!empty && !tooLong) mutation.mutate();
          }}
        >
          <p className="text-sm text-slate-600">{t('jobs.actions.saveTemplateBody')}</p>
          <Field label={t('jobs.actions.templateName')} error={nameError}>
            <input
              data-testid="template-name"
              className={`${inputClass} ${nameError ? inputInvalid : ''}`}
              aria-invalid={nameError !== undefined}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <Field label={t('jobs.actions.templateDescription')} error={fieldError(mutation.error, 'description')}>
            <textarea
              data-testid="template-description"
              rows={3}
              className={inputClass}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </Field>
          <Field
            label={t('jobs.actions.templateVisibility')}
            hint={t(`jobs.actions.visibilityHint.${visibility}`, { account: job.account })}
            error={fieldError(mutation.error, 'visibility')}
          >
            <select
              data-testid="template-visibility"
              className={inputClass}
              value={visibility}
              onChange={(e) => setVisibility(e.target.value as TemplateVisibility)}
            >
              {VISIBILITIES.map((v) => (
                <option key={v} value={v}>
                  {t(`jobs.actions.visibility.${v}`)}
                </option>
              ))}
            </select>
          </Field>
          {mutation.isError && <FormError error={mutation.error} />}
          <div className="flex justify-end gap-2">
            <button type="button" className={btnSecondary} onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" data-testid="template-save-confirm" className={btnPrimary} disabled={mutation.isPending || empty}>
              {mutation.isPending ? t('jobs.actions.savingTemplate') : t('jobs.actions.saveTemplateConfirm')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
