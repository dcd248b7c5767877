import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/errors';
import { dryRunJob, getJob, submitJob } from '../../api/jobs';
import type { JobDetail, JobKind, JobPriority, SubmitJob } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { Field } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { unitProblemText } from '../../components/common/quantityText';
import type { UnitProblem } from '../../lib/units';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, card, inputClass, inputInvalid } from '../../components/common/ui';
import { useAcceleratorModels } from '../catalog/queries';
import { useAccelerators } from '../cluster/queries';
import { useCurrentAccount } from '../me/useCurrentAccount';
import { featureOff, useAccountFeatures } from './accountFeatures';
import { TemplatePicker } from '../templates/TemplatePicker';
import { parseVersionParam } from '../templates/templateCard';
import {
  COMMAND_PLACEHOLDERS,
  IMAGE_PLACEHOLDERS,
  JOB_FIELD_PARSERS,
  SPEC_FORM_FIELDS,
  JOB_KINDS,
  JOB_PRIORITIES,
  MAX_JOB_NAME,
  nameTooLong,
  buildSubmitJob,
  defaultJobForm,
  formFieldOf,
  isInteractiveKind,
  jobFormFromSpec,
  requiresCommand,
  requiresImage,
  templateClone,
  type JobFormValues,
} from './jobForm';
import type { EnvLineError } from './envLines';
import { SecretEnvWarning } from './SecretEnvWarning';
import { jobKeys } from './queries';
import { AccountProposals } from './AccountProposals';
import { useRecheckOnAccountChange } from './useRecheckOnAccountChange';
import { DryRunPanel, SubmitError } from './SubmitFeedback';
import { TemplateJobForm } from './TemplateJobForm';
import { MountPicker } from '../assets/MountPicker';
import { ImagePicker } from '../images/ImagePicker';
import { NodeTargetsField } from './NodeTargetsField';
import { ANY_NODE, nodeFieldErrorText } from './nodeTargets';

/** Server field errors grouped by the form input that shows them ("env.FOO" → env, "nodes.use[1]" → nodes, with the name). */
function serverFieldErrors(error: unknown, nodeNames: readonly string[]): Record<string, string> {
  if (!isApiError(error)) return {};
  const out: Record<string, string[]> = {};
  for (const f of error.fieldErrors) {
    const field = formFieldOf(f.field);
    const text = f.field.startsWith('env.')
      ? `${f.field.slice(4)}: ${f.message}`
      : field === 'nodes'
        ? nodeFieldErrorText(f.field, f.message, nodeNames)
        : f.message;
    (out[field] ??= []).push(text);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.join('; ')]));
}

function EnvErrors({ errors }: { errors: EnvLineError[] }) {
  const { t } = useTranslation();
  if (errors.length === 0) return null;
  return (
    <ul data-testid="job-env-errors" className="mt-1 list-disc pl-5 text-xs text-rose-700">
      {errors.map((e) => (
        <li key={e.line}>{t(`jobs.form.envError.${e.problem}`, { line: e.line, name: e.name })}</li>
      ))}
    </ul>
  );
}

/** Fields sent with the form's spec that the form does not show (a clone's source job). */
type SpecExtras = Pick<SubmitJob, 'sourceJob'>;

/** The full-spec form: every field of a job typed in, checked here, then checked or submitted. */
function JobSpecForm({ initial, extras }: { initial?: JobFormValues; extras?: SpecExtras }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const models = useAcceleratorModels();
  const fleet = useAccelerators();
  const [values, setValues] = useState<JobFormValues>(() => initial ?? defaultJobForm());
  const { account, features } = useAccountFeatures();
  const offText = t('accounts.features.kindOff', { account: account ?? '' });
  const [errors, setErrors] = useState<Record<string, UnitProblem>>({});
  const [envErrors, setEnvErrors] = useState<EnvLineError[]>([]);

  const dryRun = useMutation({ mutationFn: (body: SubmitJob) => dryRunJob(body) });
  useRecheckOnAccountChange(dryRun);
  const submit = useMutation({
    mutationFn: (body: SubmitJob) => submitJob(body),
    onSuccess: (job) => {
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
      void navigate(`/jobs/${encodeURIComponent(job.id)}`);
    },
  });

  const set = <K extends keyof JobFormValues>(key: K, value: JobFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    // A check describes the form as it was; any edit makes it stale.
    if (dryRun.data || dryRun.error) dryRun.reset();
  };

  const build = (): SubmitJob | null => {
    const built = buildSubmitJob(values);
    setErrors(built.errors);
    setEnvErrors(built.envErrors);
    return built.body && extras ? { ...built.body, ...extras } : built.body;
  };

  const onCheck = () => {
    const body = build();
    submit.reset();
    if (body) dryRun.mutate(body);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const body = build();
    dryRun.reset();
    if (body) submit.mutate(body);
  };

  const serverError = submit.error ?? dryRun.error;
  const server = serverFieldErrors(serverError, values.nodes?.names ?? []);
  const err = (field: string) => {
    const local = errors[field];
    return local ? unitProblemText(t, local) : server[field];
  };
  // Said while typing, not only on submit: the server refuses a longer name (it is never cut).
  const longName = values.name.trim().length > MAX_JOB_NAME ? unitProblemText(t, nameTooLong(values.name.trim())) : undefined;
  const amountInput = (field: keyof typeof JOB_FIELD_PARSERS, serverField: string, testId: string, unit?: string) => (
    <QuantityInput
      testId={testId}
      value={values[field]}
      parse={JOB_FIELD_PARSERS[field]}
      unitKey={unit}
      error={err(serverField)}
      onChange={(text) => set(field, text)}
    />
  );
  const cls = (field: string) => `${inputClass} ${err(field) ? inputInvalid : ''}`;
  const kind = values.kind;
  const free = new Map((fleet.data?.items ?? []).map((a) => [a.model, a.free]));
  const busy = dryRun.isPending || submit.isPending;

  return (
    <form onSubmit={onSubmit} noValidate data-testid="job-form" className="flex flex-col gap-6">
      <section className={`${card} grid gap-4 sm:grid-cols-2`}>
        <Field
          label={t('jobs.form.kind')}
          hint={t(`jobs.kindHints.${kind}`)}
          error={err('kind') ?? (featureOff(features, kind) ? offText : undefined)}
        >
          <select data-testid="job-kind" className={cls('kind')} value={kind} onChange={(e) => set('kind', e.target.value as JobKind)}>
            {JOB_KINDS.map((k) => (
              <option key={k} value={k} disabled={featureOff(features, k)}>
                {t(`jobs.kinds.${k}`)}
                {featureOff(features, k) ? ` · ${offText}` : ''}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('jobs.form.name')} error={longName ?? err('name')}>
          <input
            data-testid="job-name"
            className={`${inputClass} ${(longName ?? err('name')) ? inputInvalid : ''}`}
            aria-invalid={(longName ?? err('name')) !== undefined}
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <div className="sm:col-span-2">
          <Field
            label={requiresImage(kind) ? t('jobs.form.image') : t('jobs.form.imageOptional')}
            hint={requiresImage(kind) ? undefined : t('jobs.form.imageDefault')}
            error={err('image')}
          >
            <input
              data-testid="job-image"
              className={`${cls('image')} font-mono`}
              placeholder={IMAGE_PLACEHOLDERS[kind]}
              value={values.image}
              onChange={(e) => set('image', e.target.value)}
            />
          </Field>
          <ImagePicker
            kind={kind}
            acceleratorModel={values.acceleratorModel}
            value={values.image}
            onChoose={(text) => set('image', text)}
          />
        </div>
        {!isInteractiveKind(kind) && (
          <Field
            label={requiresCommand(kind) ? t('jobs.form.command') : t('jobs.form.commandOptional')}
            hint={t('jobs.form.commandHint')}
            error={err('command')}
            className="sm:col-span-2"
          >
            <input
              data-testid="job-command"
              className={`${cls('command')} font-mono`}
              placeholder={COMMAND_PLACEHOLDERS[kind]}
              value={values.command}
              onChange={(e) => set('command', e.target.value)}
            />
          </Field>
        )}
        <Field label={t('jobs.form.env')} hint={t('jobs.form.envHint')} error={err('env')} className="sm:col-span-2">
          <textarea
            data-testid="job-env"
            rows={3}
            className={`${cls('env')} font-mono`}
            placeholder="EPOCHS=10"
            value={values.env}
            onChange={(e) => set('env', e.target.value)}
          />
          <EnvErrors errors={envErrors} />
          <SecretEnvWarning text={values.env} onChange={(text) => set('env', text)} />
        </Field>
        <Field label={t('assets.mounts.label')} hint={t('assets.mounts.hint')} error={err('mounts')} className="sm:col-span-2">
          <textarea
            data-testid="job-mounts"
            rows={2}
            className={`${cls('mounts')} font-mono`}
            placeholder="dataset imagenet /data/imagenet"
            value={values.mounts ?? ''}
            onChange={(e) => set('mounts', e.target.value)}
          />
          <MountPicker text={values.mounts ?? ''} onChange={(text) => set('mounts', text)} />
        </Field>
        <Field label={t('jobs.form.workingDir')} hint={t('jobs.form.workingDirHint')} error={err('workingDir')} className="sm:col-span-2">
          <input
            data-testid="job-working-dir"
            className={`${cls('workingDir')} font-mono`}
            aria-invalid={err('workingDir') !== undefined}
            placeholder="/workspace"
            value={values.workingDir}
            onChange={(e) => set('workingDir', e.target.value)}
          />
        </Field>
      </section>

      <section className={`${card} grid gap-4 sm:grid-cols-3`}>
        <h2 className="text-sm font-semibold text-slate-900 sm:col-span-3">{t('jobs.form.resources')}</h2>
        <Field label={`${t('jobs.form.cpu')} (${t('units.cpu')})`}>{amountInput('cpu', 'resources.cpu', 'job-cpu', 'units.cpu')}</Field>
        <Field label={`${t('jobs.form.memory')} (${t('units.memory')})`}>{amountInput('memory', 'resources.memory', 'job-memory')}</Field>
        <Field label={`${t('jobs.form.sharedMemory')} (${t('units.memory')})`} hint={t('jobs.form.sharedMemoryHint')}>
          {amountInput('sharedMemory', 'resources.sharedMemory', 'job-shared-memory')}
        </Field>
        <Field label={t('jobs.form.acceleratorModel')} error={err('resources.acceleratorModel')} className="sm:col-span-2">
          <select
            data-testid="job-accelerator-model"
            className={cls('resources.acceleratorModel')}
            value={values.acceleratorModel}
            onChange={(e) => set('acceleratorModel', e.target.value)}
          >
            <option value="">{t('jobs.form.noAccelerator')}</option>
            {(models.data?.items ?? []).map((m) => {
              const n = free.get(m.key);
              return (
                <option key={m.key} value={m.key}>
                  {m.displayName}
                  {n !== undefined ? ` · ${t('jobs.form.free', { count: n })}` : ''}
                  {m.restricted ? ` · ${t('catalog.restricted')}` : ''}
                </option>
              );
            })}
          </select>
        </Field>
        <Field label={`${t('jobs.form.accelerators')} (${t('units.accelerator')})`}>
          <QuantityInput
            testId="job-accelerators"
            inputMode="numeric"
            disabled={values.acceleratorModel === ''}
            value={values.accelerators}
            parse={JOB_FIELD_PARSERS.accelerators}
            unitKey="units.accelerator"
            error={err('resources.accelerators')}
            onChange={(text) => set('accelerators', text)}
          />
        </Field>
        {kind === 'pytorch' && (
          <Field label={t('jobs.form.workers')} hint={t('jobs.form.workersHint')}>
            <QuantityInput
              testId="job-workers"
              inputMode="numeric"
              placeholder="0"
              value={values.workers}
              parse={JOB_FIELD_PARSERS.workers}
              error={err('workers')}
              onChange={(text) => set('workers', text)}
            />
          </Field>
        )}
        <Field label={`${t('jobs.form.timeLimit')} (${t('units.hours')})`} hint={t('jobs.form.timeLimitHint')}>
          <QuantityInput
            testId="job-time-limit"
            placeholder="12h"
            value={values.timeLimit}
            parse={JOB_FIELD_PARSERS.timeLimit}
            error={err('timeLimit')}
            onChange={(text) => set('timeLimit', text)}
          />
        </Field>
        <Field
          label={t('jobs.form.priority')}
          error={err('priority') ?? (values.priority === 'high' && featureOff(features, 'high-priority') ? offText : undefined)}
        >
          <select
            data-testid="job-priority"
            className={cls('priority')}
            value={values.priority}
            onChange={(e) => set('priority', e.target.value as JobPriority)}
          >
            {JOB_PRIORITIES.map((p) => (
              <option key={p} value={p} disabled={p === 'high' && featureOff(features, 'high-priority')}>
                {t(`jobs.priority.${p}`)}
              </option>
            ))}
          </select>
        </Field>
        <div className="sm:col-span-3">
          <NodeTargetsField value={values.nodes ?? ANY_NODE} onChange={(nodes) => set('nodes', nodes)} error={err('nodes')} />
        </div>
      </section>

      {Object.keys(errors).length > 0 && (
        <p role="alert" data-testid="job-form-invalid" className="text-sm text-rose-700">
          {t('jobs.form.fixFields')}
        </p>
      )}
      {serverError && <SubmitError error={serverError} shownFields={(f) => SPEC_FORM_FIELDS.has(formFieldOf(f))} />}
      {dryRun.data && <DryRunPanel result={dryRun.data} />}
      {dryRun.data && dryRun.variables && (
        <AccountProposals
          result={dryRun.data}
          requestKey={JSON.stringify(dryRun.variables)}
          check={(slug) => dryRunJob(dryRun.variables!, slug)}
        />
      )}

      <div className="flex justify-end gap-2">
        <button type="button" data-testid="job-dryrun" className={btnSecondary} disabled={busy} onClick={onCheck}>
          {dryRun.isPending ? t('jobs.form.checking') : t('jobs.form.check')}
        </button>
        <button type="submit" data-testid="job-submit" className={btnPrimary} disabled={busy}>
          {submit.isPending ? t('jobs.form.submitting') : t('jobs.form.submit')}
        </button>
      </div>
    </form>
  );
}

/** The spec form filled from another job's spec (`?from=<jobId>`), submitted with that job as its source. */
function ClonedJobForm({ jobId }: { jobId: string }) {
  const { t } = useTranslation();
  // Shares the job page's cache entry, without its polling: the spec does not change.
  const query = useQuery({ queryKey: jobKeys.detail(jobId), queryFn: ({ signal }) => getJob(jobId, signal) });
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    return (
      <div className="flex flex-col gap-3">
        <ErrorState title={t('jobs.form.cloneLoadError')} error={query.error} onRetry={() => void query.refetch()} />
        <Link to="/jobs/new" className="text-sm font-medium text-indigo-700 hover:underline">
          {t('jobs.form.blankForm')}
        </Link>
      </div>
    );
  }
  return <ClonedForm jobId={jobId} detail={query.data} />;
}

function ClonedForm({ jobId, detail }: { jobId: string; detail: JobDetail }) {
  const { t } = useTranslation();
  const [initial] = useState(() => jobFormFromSpec(detail.spec, t('jobs.form.copySuffix')));
  const [fromTemplate] = useState(() => templateClone(detail.spec, jobId, t('jobs.form.copySuffix')));
  const templateName = detail.template?.name ?? detail.spec.template?.id;
  const specForm = <JobSpecForm initial={initial} extras={{ sourceJob: jobId }} />;
  return (
    <>
      <div
        data-testid="job-cloned-from"
        data-source={jobId}
        className="rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-900 ring-1 ring-indigo-200"
      >
        <p>
          {t('jobs.form.clonedFrom', { id: jobId })}{' '}
          <Link to={`/jobs/${encodeURIComponent(jobId)}`} className="font-medium text-indigo-700 underline">
            {t('jobs.form.viewSource')}
          </Link>
        </p>
        {templateName && !fromTemplate && (
          <p className="mt-1 text-xs text-indigo-800">{t('jobs.form.clonedTemplateNote', { name: templateName })}</p>
        )}
      </div>
      {fromTemplate ? (
        <TemplateJobForm templateId={fromTemplate.templateId} version={fromTemplate.version} clone={fromTemplate} fallback={specForm} />
      ) : (
        specForm
      )}
    </>
  );
}

/**
 * New job. Without parameters: a template picker above the full-spec form. `?template=<id>` (and optionally
 * `&version=<n>`): the template's form. `?from=<jobId>`: the spec form filled from that job, to clone it.
 */
export function NewJobPage() {
  const { t } = useTranslation();
  const { account } = useCurrentAccount();
  const [search] = useSearchParams();
  const templateId = search.get('template');
  const version = parseVersionParam(search.get('version'));
  const from = search.get('from');
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader title={t('jobs.form.title')} subtitle={account ? t('jobs.form.subtitle', { account }) : undefined} />
        <Link to="/jobs" className={btnSecondary}>
          {t('jobs.back')}
        </Link>
      </div>
      {templateId ? (
        <TemplateJobForm key={`${templateId}@${version ?? 'latest'}`} templateId={templateId} version={version} />
      ) : from ? (
        <ClonedJobForm key={from} jobId={from} />
      ) : (
        <>
          <TemplatePicker />
          <JobSpecForm />
        </>
      )}
    </div>
  );
}
