import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { describeError } from './errorText';

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 p-6 text-sm text-slate-500">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-500" aria-hidden="true" />
      {label ?? t('common.loading')}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div
      data-testid="empty-state"
      className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-500"
    >
      <p className="font-medium text-slate-700">{title}</p>
      {children}
    </div>
  );
}

interface ErrorStateProps {
  title: string;
  error: unknown;
  onRetry?: () => void;
}

/** Shows a failed request: the problem title/detail and reasons, with an optional retry. */
export function ErrorState({ title, error, onRetry }: ErrorStateProps) {
  const { t } = useTranslation();
  const detail = describeError(error, t('common.unexpected'));
  const reasons = isApiError(error) ? error.reasons : [];
  return (
    <div role="alert" data-testid="error-state" className="rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm">
      <p className="font-semibold text-rose-800">{title}</p>
      <p className="mt-1 text-rose-700">{detail}</p>
      {reasons.length > 0 && (
        <ul className="mt-2 list-disc pl-5 text-rose-700">
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-3 rounded-md bg-white px-3 py-1.5 font-medium text-rose-700 shadow-sm ring-1 ring-rose-300 hover:bg-rose-100"
        >
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
