import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { decideDeviceAuthorization, getDeviceAuthorization } from '../../api/auth';
import { isApiError } from '../../api/errors';
import type { DeviceAuthorization } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnDanger, btnPrimary, btnSecondary, card, inputClass, inputInvalid, labelText } from '../../components/common/ui';
import { formatDateTime, isPast } from '../../lib/time';
import { useNow } from '../../lib/useNow';
import { normaliseUserCode } from './userCode';

type Decision = 'approve' | 'deny';

/** The first step, and the empty state: the code the client printed, typed in (or filled in from `?code=`). */
function CodeForm({ initial, onCode }: { initial: string; onCode: (code: string) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(initial);
  const [invalid, setInvalid] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const code = normaliseUserCode(typed);
    setInvalid(code === null);
    if (code !== null) onCode(code);
  };
  return (
    <form data-testid="device-code-form" onSubmit={submit} className={`${card} flex max-w-md flex-col gap-3`} noValidate>
      <p className="text-sm text-slate-600">{t('device.enterHint')}</p>
      <div>
        <label htmlFor="device-code" className={labelText}>
          {t('device.code')}
        </label>
        <input
          id="device-code"
          data-testid="device-code-input"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder="XXXX-XXXX"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={16}
          aria-invalid={invalid}
          className={`${inputClass} font-mono text-lg tracking-widest ${invalid ? inputInvalid : ''}`}
        />
        {invalid && (
          <p data-testid="device-code-invalid" className="mt-1 text-sm text-rose-700">
            {t('device.invalidCode')}
          </p>
        )}
      </div>
      <button type="submit" data-testid="device-continue" className={`${btnPrimary} self-start`}>
        {t('device.continue')}
      </button>
    </form>
  );
}

/** Why a code cannot be decided (404: unknown, expired or decided; 429: too many misses), with a way back. */
function LookupError({ error, onRetry, onOther }: { error: unknown; onRetry: () => void; onOther: () => void }) {
  const { t } = useTranslation();
  const other = (
    <button type="button" data-testid="device-other-code" onClick={onOther} className={`${btnSecondary} mt-3`}>
      {t('device.otherCode')}
    </button>
  );
  if (isApiError(error) && (error.status === 404 || error.status === 429)) {
    const text =
      error.status === 404
        ? t('device.notFound')
        : t('device.throttled', { count: Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60)) });
    return (
      <div data-testid={error.status === 404 ? 'device-not-found' : 'device-throttled'} className={`${card} max-w-md`}>
        <p className="text-sm text-slate-700">{text}</p>
        {other}
      </div>
    );
  }
  return (
    <div className="max-w-md">
      <ErrorState title={t('device.loadError')} error={error} onRetry={onRetry} />
      {other}
    </div>
  );
}

function Field({ label, children, testId }: { label: string; children: string; testId: string }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
      <dt className="w-40 shrink-0 text-slate-500">{label}</dt>
      <dd data-testid={testId} className="break-all text-slate-900">
        {children}
      </dd>
    </div>
  );
}

/** What asks to sign in as the viewer, the warning, and the two buttons. */
function PendingRequest({
  request,
  onDecided,
  onOther,
}: {
  request: DeviceAuthorization;
  onDecided: (d: Decision) => void;
  onOther: () => void;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow(1000);
  const expired = isPast(request.expiresAt, now);
  const decide = useMutation({
    mutationFn: (d: Decision) => decideDeviceAuthorization(request.userCode, d),
    onSuccess: (_v, d) => onDecided(d),
  });
  if (expired) {
    return (
      <div data-testid="device-expired" className={`${card} max-w-md`}>
        <p className="text-sm text-slate-700">{t('device.expired')}</p>
        <button type="button" onClick={onOther} className={`${btnSecondary} mt-3`}>
          {t('device.otherCode')}
        </button>
      </div>
    );
  }
  const minutesLeft = Math.max(1, Math.ceil((Date.parse(request.expiresAt) - now) / 60_000));
  return (
    <div data-testid="device-request" className={`${card} flex max-w-xl flex-col gap-4`}>
      <p className="text-sm text-slate-700">{t('device.asks')}</p>
      <dl className="flex flex-col gap-2 text-sm">
        <Field label={t('device.code')} testId="device-user-code">
          {request.userCode}
        </Field>
        <Field label={t('device.client')} testId="device-client">
          {request.clientName}
        </Field>
        <Field label={t('device.address')} testId="device-address">
          {request.clientAddress}
        </Field>
        <Field label={t('device.requestedAt')} testId="device-requested-at">
          {formatDateTime(request.createdAt, i18n.language)}
        </Field>
        <Field label={t('device.expiresAt')} testId="device-expires-at">
          {t('device.expiresIn', { time: formatDateTime(request.expiresAt, i18n.language), count: minutesLeft })}
        </Field>
      </dl>
      <div role="note" data-testid="device-warning" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        <p className="font-semibold">{t('device.warningTitle')}</p>
        <p className="mt-1">{t('device.warning')}</p>
      </div>
      {decide.isError && (
        <ErrorState
          title={isApiError(decide.error) && decide.error.status === 404 ? t('device.goneWhileDeciding') : t('device.decideError')}
          error={decide.error}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          data-testid="device-approve"
          disabled={decide.isPending}
          onClick={() => decide.mutate('approve')}
          className={btnPrimary}
        >
          {decide.isPending && decide.variables === 'approve' ? t('device.approving') : t('device.approve')}
        </button>
        <button
          type="button"
          data-testid="device-deny"
          disabled={decide.isPending}
          onClick={() => decide.mutate('deny')}
          className={btnDanger}
        >
          {t('device.deny')}
        </button>
      </div>
    </div>
  );
}

function Done({ decision, onOther }: { decision: Decision; onOther: () => void }) {
  const { t } = useTranslation();
  return (
    <div data-testid={`device-${decision === 'approve' ? 'approved' : 'denied'}`} className={`${card} flex max-w-md flex-col gap-2`}>
      <p className="text-sm font-semibold text-slate-900">{decision === 'approve' ? t('device.approvedTitle') : t('device.deniedTitle')}</p>
      <p className="text-sm text-slate-600">{decision === 'approve' ? t('device.approvedText') : t('device.deniedText')}</p>
      {decision === 'approve' && (
        <p className="text-sm text-slate-600">
          <Link to="/profile" className="font-medium text-indigo-700 hover:underline">
            {t('device.tokens')}
          </Link>
        </p>
      )}
      <button type="button" onClick={onOther} className={`${btnSecondary} self-start`}>
        {t('device.otherCode')}
      </button>
    </div>
  );
}

/**
 * `/device`: where a person approves a client's device sign-in (RFC 8628). The client printed this page's address and a
 * code (or a link with `?code=`); signed-out visitors come back here after signing in.
 */
export function DevicePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const fromLink = params.get('code') ?? '';
  const [code, setCode] = useState<string | null>(() => normaliseUserCode(fromLink));
  const [prefill, setPrefill] = useState(fromLink);
  const [decided, setDecided] = useState<Decision | null>(null);
  const lookup = useQuery({
    queryKey: ['auth', 'device', code],
    queryFn: ({ signal }) => getDeviceAuthorization(code ?? '', signal),
    enabled: code !== null && decided === null,
    retry: false,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const other = () => {
    setDecided(null);
    setCode(null);
    setPrefill('');
    setParams({}, { replace: true });
  };

  let body;
  if (decided !== null) body = <Done decision={decided} onOther={other} />;
  else if (code === null) body = <CodeForm initial={prefill} onCode={setCode} />;
  else if (lookup.isPending) body = <LoadingState />;
  else if (lookup.isError) body = <LookupError error={lookup.error} onRetry={() => void lookup.refetch()} onOther={other} />;
  else body = <PendingRequest request={lookup.data} onDecided={setDecided} onOther={other} />;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('device.title')} subtitle={t('device.subtitle')} />
      {body}
    </div>
  );
}
