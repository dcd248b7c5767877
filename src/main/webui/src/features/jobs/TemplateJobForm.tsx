import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fieldError, isApiError } from '../../api/errors';
import { dryRunTemplateJob, submitJobYaml, submitTemplateJob } from '../../api/jobs';
import { renderTemplate } from '../../api/templates';
import type { DryRunResult, JobPriority, JobSummary, SubmitTemplateJob, Template } from '../../api/types';
import { Field, FormError } from '../../components/common/Form';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, card, inputClass, inputInvalid } from '../../components/common/ui';
import { acceleratorModelsQuery } from '../catalog/queries';
import { buildParameters, initialParameterValues, type ParameterValues } from '../templates/parameterForm';
import { templateQuery } from '../templates/queries';
import { TemplateParameterForm } from '../templates/TemplateParameterForm';
import { JOB_PRIORITIES, MAX_JOB_NAME, checkWorkingDir, nameTooLong, type TemplateClone } from './jobForm';
import { amountParameter, checkAmountParameters, imageParameter, parameterTargets, templateFieldErrors } from './templateTargets';
import { ImagePicker } from '../images/ImagePicker';
import { understoodText, unitProblemText } from '../../components/common/quantityText';
import type { UnitProblem } from '../../lib/units';
import { jobKeys } from './queries';
import { AccountProposals } from './AccountProposals';
import { useRecheckOnAccountChange } from './useRecheckOnAccountChange';
import { DryRunPanel, SubmitError } from './SubmitFeedback';
import { featureOff, useAccountFeatures } from './accountFeatures';
import { NodeTargetsField } from './NodeTargetsField';
import { ANY_NODE, isNodesField, nodeFieldErrorText, nodeTargetsBody, nodeTargetsProblem, type NodeTargetsForm } from './nodeTargets';

/** The server's errors of the nodes field, each naming the node it is about, in one line. */
function nodesServerError(error: unknown, names: readonly string[]): string | undefined {
  if (!isApiError(error)) return undefined;
  const texts = error.fieldErrors.filter((f) => isNodesField(f.field)).map((f) => nodeFieldErrorText(f.field, f.message, names));
  return texts.length > 0 ? texts.join('; ') : undefined;
}

/** What check and submit send: the form (template, values, name, priority) or, in the advanced view, YAML. */
type JobRequest = { mode: 'form'; body: SubmitTemplateJob } | { mode: 'yaml'; yaml: string };

function isDryRunResult(answer: JobSummary | DryRunResult): answer is DryRunResult {
  return 'decision' in answer;
}

async function dryRunRequest(req: JobRequest): Promise<DryRunResult> {
  if (req.mode === 'form') return dryRunTemplateJob(req.body);
  const answer = await submitJobYaml(req.yaml, true);
  if (!isDryRunResult(answer)) throw new Error('The server did not answer the check with a decision.');
  return answer;
}

async function submitRequest(req: JobRequest): Promise<JobSummary> {
  if (req.mode === 'form') return submitTemplateJob(req.body);
  const answer = await submitJobYaml(req.yaml, false);
  if (isDryRunResult(answer)) throw new Error('The server answered the submission with a check.');
  return answer;
}

function nameProblem(name: string): UnitProblem | null {
  if (name === '') return { key: 'jobs.form.nameRequired' };
  if (name.length > MAX_JOB_NAME) return nameTooLong(name);
  return null;
}

/** A clone's stored values, kept only for parameters this template version has. */
function startValues(template: Template, clone: TemplateClone | undefined): ParameterValues {
  const values = initialParameterValues(template.parameters);
  for (const p of template.parameters) {
    const stored = clone?.parameters[p.name];
    if (stored !== undefined) values[p.name] = stored;
  }
  return values;
}

/**
 * The form of one loaded template version: name, priority, working directory, parameters, or the rendered
 * YAML to edit. A clone starts from the original's values and is submitted with it as its source.
 */
function TemplateForm({ template, clone }: { template: Template; clone?: TemplateClone | undefined }) {
  const { account, features } = useAccountFeatures();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hasModel = template.parameters.some((p) => p.type === 'model');
  const models = useQuery({ ...acceleratorModelsQuery(), enabled: hasModel });
  const [name, setName] = useState(clone?.name ?? template.name);
  const [priority, setPriority] = useState<JobPriority>(clone?.priority ?? 'normal');
  const [workingDir, setWorkingDir] = useState(clone?.workingDir ?? '');
  const [workingDirError, setWorkingDirError] = useState<UnitProblem | null>(null);
  const [nodes, setNodes] = useState<NodeTargetsForm>(clone?.nodes ?? ANY_NODE);
  const [nodesError, setNodesError] = useState<UnitProblem | null>(null);
  const [values, setValues] = useState<ParameterValues>(() => startValues(template, clone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [amountErrors, setAmountErrors] = useState<Record<string, UnitProblem>>({});
  const [nameError, setNameError] = useState<UnitProblem | null>(null);
  const [targets] = useState(() => parameterTargets(template.spec ?? {}));
  const [advanced, setAdvanced] = useState(false);
  const [yaml, setYaml] = useState('');
  const [yamlEmpty, setYamlEmpty] = useState(false);

  const render = useMutation({
    mutationFn: (parameters: Record<string, string>) => renderTemplate(template.id, parameters, template.version),
    onSuccess: (rendered) => {
      setYaml(rendered.yaml);
      setYamlEmpty(false);
      setAdvanced(true);
    },
  });
  const dryRun = useMutation({ mutationFn: dryRunRequest });
  useRecheckOnAccountChange(dryRun);
  const submit = useMutation({
    mutationFn: submitRequest,
    onSuccess: (job) => {
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
      void navigate(`/jobs/${encodeURIComponent(job.id)}`);
    },
  });

  // Model keys are checked only once the catalogue is known (the server checks them anyway).
  const modelKeys = hasModel && models.data ? models.data.items.map((m) => m.key) : undefined;

  /** Any edit makes a check (and a failed render) stale. */
  const touched = () => {
    if (dryRun.data || dryRun.error) dryRun.reset();
    if (render.error) render.reset();
  };

  const onParameter = (paramName: string, value: string) => {
    setValues((v) => ({ ...v, [paramName]: value }));
    touched();
  };

  /** Checks the form; the parameters to send, or null (the problems are then shown). */
  const checkForm = (): Record<string, string> | null => {
    // Amounts are read in the unit of the job field they fill and sent in the server's form ("64" → "64Gi").
    const amounts = checkAmountParameters(template.parameters, values, targets);
    const built = buildParameters(template.parameters, { ...values, ...amounts.values }, modelKeys);
    const problem = nameProblem(name.trim());
    const dirProblem = checkWorkingDir(workingDir.trim());
    setErrors(Object.fromEntries(Object.entries(built.errors).filter(([k]) => amounts.errors[k] === undefined)));
    setAmountErrors(amounts.errors);
    setNameError(problem);
    setWorkingDirError(dirProblem);
    const nodesProblem = nodeTargetsProblem(nodes);
    setNodesError(nodesProblem);
    const fine = problem === null && dirProblem === null && nodesProblem === null && Object.keys(amounts.errors).length === 0;
    return fine ? built.parameters : null;
  };

  const build = (): JobRequest | null => {
    if (advanced) {
      const empty = yaml.trim() === '';
      setYamlEmpty(empty);
      return empty ? null : { mode: 'yaml', yaml };
    }
    const parameters = checkForm();
    if (parameters === null) return null;
    const body: SubmitTemplateJob = {
      name: name.trim(),
      priority,
      template: { id: template.id, version: template.version, parameters },
    };
    // Empty: the directory the template gives (its placeholder); given: it replaces the template's.
    if (workingDir.trim() !== '') body.workingDir = workingDir.trim();
    // Any node: the nodes the template names, if any; a list: it replaces theirs.
    const targets = nodeTargetsBody(nodes);
    if (targets) body.nodes = targets;
    if (clone) body.sourceJob = clone.sourceJob;
    return { mode: 'form', body };
  };

  const onCheck = () => {
    const req = build();
    submit.reset();
    if (req) dryRun.mutate(req);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const req = build();
    dryRun.reset();
    if (req) submit.mutate(req);
  };

  const onToggleAdvanced = () => {
    dryRun.reset();
    submit.reset();
    if (advanced) {
      // Back to the form: its values are as they were; YAML edits are dropped.
      setAdvanced(false);
      render.reset();
      return;
    }
    const parameters = checkForm();
    if (parameters !== null) render.mutate(parameters);
  };

  const serverError = submit.error ?? dryRun.error ?? render.error;
  const server = templateFieldErrors(serverError, targets);
  const paramErrors: Record<string, string | undefined> = {};
  const notes: Record<string, string | undefined> = {};
  const units: Record<string, string | undefined> = {};
  for (const p of template.parameters) {
    const local = amountErrors[p.name] ? unitProblemText(t, amountErrors[p.name]!) : errors[p.name] ? t(errors[p.name]!) : undefined;
    paramErrors[p.name] = local ?? server.byParameter[p.name];
    const amount = amountParameter(p, targets);
    const value = values[p.name] ?? '';
    if (amount === undefined) continue;
    units[p.name] = amount.unitKey ? t(amount.unitKey) : undefined;
    if (value.trim() === '') continue;
    const parsed = amount.parse(value);
    const memory = amount.unitKey === 'units.memory';
    notes[p.name] = parsed.ok
      ? understoodText(t, parsed, memory || amount.unitKey === 'units.hours' ? undefined : amount.unitKey || undefined)
      : unitProblemText(t, parsed.problem);
  }
  const image = imageParameter(template.parameters, template.spec ?? {}, targets, values);
  const imagePick = image && {
    name: image.name,
    picker: (
      <ImagePicker
        kind={template.kind}
        acceleratorModel={image.acceleratorModel}
        value={values[image.name] ?? ''}
        onChoose={(text) => onParameter(image.name, text)}
      />
    ),
  };
  const longName = name.trim().length > MAX_JOB_NAME ? nameTooLong(name.trim()) : null;
  const shownNameError = nameError ?? longName;
  const nameMessage = shownNameError ? unitProblemText(t, shownNameError) : fieldError(serverError, 'name');
  const priorityMessage = fieldError(serverError, 'priority');
  const workingDirMessage = workingDirError ? unitProblemText(t, workingDirError) : fieldError(serverError, 'workingDir');
  const nodesMessage = nodesError ? unitProblemText(t, nodesError) : nodesServerError(serverError, nodes.names);
  const templateDir = typeof template.spec?.workingDir === 'string' ? template.spec.workingDir : '';
  const busy = dryRun.isPending || submit.isPending || render.isPending;
  const invalid =
    !advanced &&
    (nameError !== null ||
      workingDirError !== null ||
      nodesError !== null ||
      Object.keys(errors).length > 0 ||
      Object.keys(amountErrors).length > 0);

  return (
    <form onSubmit={onSubmit} noValidate data-testid="template-form" data-template={template.id} className="flex flex-col gap-6">
      <section className={`${card} flex flex-col gap-1`}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 data-testid="template-form-name" className="text-base font-semibold text-slate-900">
              {template.name}
            </h2>
            <p className="text-xs text-slate-500">
              <span data-testid="template-form-version">{t('templates.version', { version: template.version })}</span>
              {' · '}
              {t(`jobs.kinds.${template.kind}`, { defaultValue: template.kind })}
            </p>
          </div>
          <Link to="/jobs/new" data-testid="template-form-change" className="text-sm font-medium text-indigo-700 hover:underline">
            {t('jobs.form.otherTemplate')}
          </Link>
        </div>
        {template.description && <p className="text-sm text-slate-600">{template.description}</p>}
        {featureOff(features, template.kind) && (
          <p role="alert" data-testid="template-kind-off" className="text-sm text-rose-700">
            {t('jobs.kinds.' + template.kind, { defaultValue: template.kind })}:{' '}
            {t('accounts.features.kindOff', { account: account ?? '' })}
          </p>
        )}
      </section>

      {advanced ? (
        <section className={`${card} flex flex-col gap-2`}>
          <Field label={t('jobs.form.yaml')} hint={t('jobs.form.advancedHint')} error={yamlEmpty ? t('jobs.form.yamlRequired') : undefined}>
            <textarea
              data-testid="template-yaml"
              rows={22}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              className={`${inputClass} ${yamlEmpty ? inputInvalid : ''} font-mono text-xs leading-relaxed`}
              value={yaml}
              onChange={(e) => {
                setYaml(e.target.value);
                if (dryRun.data || dryRun.error) dryRun.reset();
              }}
            />
          </Field>
        </section>
      ) : (
        <>
          <section className={`${card} grid gap-4 sm:grid-cols-2`}>
            <Field label={t('jobs.form.name')} error={nameMessage}>
              <input
                data-testid="job-name"
                className={`${inputClass} ${nameMessage ? inputInvalid : ''}`}
                aria-invalid={nameMessage !== undefined}
                value={name}
                onChange={(e) => {
                  setName(e.target.value);
                  touched();
                }}
              />
            </Field>
            <Field label={t('jobs.form.priority')} error={priorityMessage}>
              <select
                data-testid="job-priority"
                className={`${inputClass} ${priorityMessage ? inputInvalid : ''}`}
                value={priority}
                onChange={(e) => {
                  setPriority(e.target.value as JobPriority);
                  touched();
                }}
              >
                {JOB_PRIORITIES.map((p) => (
                  <option key={p} value={p}>
                    {t(`jobs.priority.${p}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              label={t('jobs.form.workingDir')}
              hint={templateDir ? t('jobs.form.workingDirTemplateHint', { dir: templateDir }) : t('jobs.form.workingDirHint')}
              error={workingDirMessage}
              className="sm:col-span-2"
            >
              <input
                data-testid="job-working-dir"
                className={`${inputClass} ${workingDirMessage ? inputInvalid : ''} font-mono`}
                aria-invalid={workingDirMessage !== undefined}
                placeholder={templateDir || '/workspace'}
                value={workingDir}
                onChange={(e) => {
                  setWorkingDir(e.target.value);
                  touched();
                }}
              />
            </Field>
            <div className="sm:col-span-2">
              <NodeTargetsField
                value={nodes}
                onChange={(v) => {
                  setNodes(v);
                  touched();
                }}
                error={nodesMessage}
                hint={t('jobs.nodes.templateHint')}
              />
            </div>
          </section>
          <section className={`${card} flex flex-col gap-4`}>
            <h2 className="text-sm font-semibold text-slate-900">{t('jobs.form.parameters')}</h2>
            <TemplateParameterForm
              parameters={template.parameters}
              values={values}
              errors={paramErrors}
              notes={notes}
              units={units}
              onChange={onParameter}
              below={imagePick ? { [imagePick.name]: imagePick.picker } : undefined}
            />
          </section>
        </>
      )}

      {invalid && (
        <p role="alert" data-testid="job-form-invalid" className="text-sm text-rose-700">
          {t('jobs.form.fixFields')}
        </p>
      )}
      {render.error ? <FormError error={render.error} message={t('jobs.form.renderFailed')} /> : null}
      {submit.error || dryRun.error ? (
        <SubmitError
          error={submit.error ?? dryRun.error}
          shownFields={advanced ? undefined : (f) => f === 'workingDir' || isNodesField(f) || server.shown(f)}
        />
      ) : null}
      {dryRun.data && <DryRunPanel result={dryRun.data} />}
      {dryRun.data && dryRun.variables?.mode === 'form' && (
        <AccountProposals
          result={dryRun.data}
          requestKey={JSON.stringify(dryRun.variables.body)}
          check={(slug) => dryRunTemplateJob((dryRun.variables as { mode: 'form'; body: SubmitTemplateJob }).body, slug)}
        />
      )}

      <div className="flex flex-wrap items-center justify-between gap-2">
        <button
          type="button"
          data-testid="template-advanced"
          aria-pressed={advanced}
          className={btnSecondary}
          disabled={busy}
          onClick={onToggleAdvanced}
        >
          {render.isPending ? t('jobs.form.rendering') : advanced ? t('jobs.form.backToForm') : t('jobs.form.advanced')}
        </button>
        <div className="flex gap-2">
          <button type="button" data-testid="job-dryrun" className={btnSecondary} disabled={busy} onClick={onCheck}>
            {dryRun.isPending ? t('jobs.form.checking') : t('jobs.form.check')}
          </button>
          <button type="submit" data-testid="job-submit" className={btnPrimary} disabled={busy}>
            {submit.isPending ? t('jobs.form.submitting') : t('jobs.form.submit')}
          </button>
        </div>
      </div>
    </form>
  );
}

/**
 * New job from a template (`/jobs/new?template=<id>[&version=<n>]`): loads the template, then its form. A
 * clone passes the original's values, and what to show instead when its template version cannot be loaded.
 */
export function TemplateJobForm({
  templateId,
  version,
  clone,
  fallback,
}: {
  templateId: string;
  version?: number | undefined;
  clone?: TemplateClone;
  fallback?: ReactNode;
}) {
  const { t } = useTranslation();
  const query = useQuery(templateQuery(templateId, version));
  if (query.isPending) return <LoadingState />;
  if (query.isError && fallback) {
    return (
      <div className="flex flex-col gap-3">
        <p data-testid="clone-template-gone" role="status" className="text-sm text-amber-800">
          {t('jobs.form.cloneTemplateGone', { id: templateId })}
        </p>
        {fallback}
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="flex flex-col gap-3">
        <ErrorState title={t('templates.loadOneError')} error={query.error} onRetry={() => void query.refetch()} />
        <Link to="/jobs/new" className="text-sm font-medium text-indigo-700 hover:underline">
          {t('jobs.form.otherTemplate')}
        </Link>
      </div>
    );
  }
  return <TemplateForm template={query.data} clone={clone} />;
}
