import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import type { AdmissionDecision, DryRunResult } from '../../api/types';
import { FormError } from '../../components/common/Form';
import { StatusBadge, type BadgeTone } from '../../components/common/StatusBadge';
import { describeError } from '../../components/common/errorText';
import { card } from '../../components/common/ui';
import { ReasonList } from './JobParts';

const DECISION_TONES: Record<AdmissionDecision, BadgeTone> = { ADMIT: 'success', QUEUE: 'warning', REJECT: 'danger' };

/** A refused submission: rejection reasons as sentences, other problems as the usual form error. */
export function SubmitError({ error, shownFields }: { error: unknown; shownFields?: (field: string) => boolean }) {
  const { t } = useTranslation();
  if (isApiError(error) && error.problemReasons.length > 0) {
    return (
      <div role="alert" data-testid="form-error" data-code={error.code} className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">
        <p className="font-medium">
          {error.code === 'JobRejected' ? t('jobs.form.rejected') : describeError(error, t('common.unexpected'))}
        </p>
        <div className="mt-1">
          <ReasonList reasons={error.problemReasons} testId="job-reject-reason" />
        </div>
      </div>
    );
  }
  let message: string | undefined;
  if (isApiError(error)) {
    if (error.code === 'NotAMember') message = t('jobs.form.notAMember');
    // The YAML parser says where it stumbled: keep its detail.
    else if (error.code === 'InvalidYaml') message = t('jobs.form.invalidYaml', { detail: error.detail ?? error.title });
    else if (error.status === 400) message = t('jobs.form.invalid');
  }
  return <FormError error={error} message={message} {...(shownFields ? { shownFields } : {})} />;
}

/** What admission would decide for the job now, with the reasons and the generated manifests. */
export function DryRunPanel({ result }: { result: DryRunResult }) {
  const { t } = useTranslation();
  return (
    <section data-testid="job-dryrun-result" data-decision={result.decision} className={`${card} flex flex-col gap-3`}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{t('jobs.form.dryRunTitle')}</h2>
        <span data-testid="job-dryrun-decision" data-decision={result.decision}>
          <StatusBadge
            tone={DECISION_TONES[result.decision] ?? 'neutral'}
            label={t(`jobs.decisionLabel.${result.decision}`, { defaultValue: result.decision })}
            value={result.decision}
          />
        </span>
        <span className="text-sm text-slate-600">{t(`jobs.decision.${result.decision}`, { defaultValue: '' })}</span>
      </div>
      {result.reasons.length > 0 && (
        <div className="text-sm text-slate-700">
          <ReasonList reasons={result.reasons} testId="job-dryrun-reason" />
        </div>
      )}
      {result.borrowing.length > 0 && (
        <p data-testid="job-dryrun-borrowing" className="text-sm text-violet-700">
          {t('jobs.form.wouldBorrow', { resources: result.borrowing.join(', ') })}
        </p>
      )}
      <details data-testid="job-dryrun-manifests">
        <summary className="cursor-pointer text-sm font-medium text-indigo-700">{t('jobs.form.manifests')}</summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
          {result.manifests}
        </pre>
      </details>
    </section>
  );
}
