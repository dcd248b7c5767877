import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { splitFieldErrors } from '../../api/fieldErrors';
import { describeError } from './errorText';
import { labelText } from './ui';

/** A labelled form control with an optional hint and error message. */
export function Field({
  label,
  children,
  error,
  hint,
  className,
}: {
  label: string;
  children: ReactNode;
  error?: string | undefined;
  hint?: string | undefined;
  className?: string;
}) {
  return (
    <label className={`block ${className ?? ''}`}>
      <span className={labelText}>{label}</span>
      {children}
      {hint && !error && <span className="mt-1 block text-xs text-slate-500">{hint}</span>}
      {error && (
        <span role="alert" className="mt-1 block text-xs text-rose-700">
          {error}
        </span>
      )}
    </label>
  );
}

/**
 * Inline message for a failed mutation: problem detail plus the field errors and reasons. Field errors the form
 * already shows under their own inputs (`shownFields`) are not repeated here.
 */
export function FormError({ error, message, shownFields }: { error: unknown; message?: string; shownFields?: (field: string) => boolean }) {
  const { t } = useTranslation();
  if (error === null || error === undefined) return null;
  const details = isApiError(error) ? [...splitFieldErrors(error, shownFields ?? (() => false)).rest, ...error.reasons] : [];
  return (
    <div
      role="alert"
      data-testid="form-error"
      data-code={isApiError(error) ? error.code : undefined}
      className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700"
    >
      <p>{message ?? describeError(error, t('common.unexpected'))}</p>
      {details.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Short confirmation after a successful action. */
export function SuccessNote({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p role="status" data-testid={testId} className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
      {children}
    </p>
  );
}

/** "Load more" button for cursor-paged lists. */
export function LoadMore({ hasMore, loading, onClick }: { hasMore: boolean; loading: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  if (!hasMore) return null;
  return (
    <div className="flex justify-center">
      <button
        type="button"
        data-testid="load-more"
        disabled={loading}
        onClick={onClick}
        className="rounded-md px-4 py-1.5 text-sm font-medium text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50 disabled:opacity-60"
      >
        {loading ? t('common.loading') : t('common.loadMore')}
      </button>
    </div>
  );
}

/** Tab bar; each tab gets data-testid `${testIdPrefix}-${value}`. */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  testIdPrefix,
  label,
}: {
  tabs: { value: T; label: string }[];
  value: T;
  onChange: (v: T) => void;
  testIdPrefix: string;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex gap-1 border-b border-slate-200">
      {tabs.map((tab) => {
        const active = tab.value === value;
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            aria-selected={active}
            data-testid={`${testIdPrefix}-${tab.value}`}
            onClick={() => onChange(tab.value)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${
              active ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-500 hover:text-slate-800'
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
