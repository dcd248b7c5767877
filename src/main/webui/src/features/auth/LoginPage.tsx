import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { listSignInProviders, login, signInProviderUrl } from '../../api/auth';
import { isApiError } from '../../api/errors';
import { LanguageSwitch } from '../../app/LanguageSwitch';
import { setAccountOwner } from '../../lib/currentAccount';
import { authKeys } from './session';
import { loginErrorMessage, providerErrorMessage } from './loginError';

function redirectTarget(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'from' in state) {
    const from = (state as { from: unknown }).from;
    if (typeof from === 'string' && from.startsWith('/') && !from.startsWith('/login')) return from;
  }
  return '/';
}

/**
 * A countdown: `start(seconds)` starts it (null stops it); the seconds left, renewed once per second, or null
 * while none runs.
 */
function useCountdown(): [number | null, (seconds: number | null) => void] {
  const [clock, setClock] = useState<{ until: number; now: number } | null>(null);
  const until = clock?.until ?? null;
  useEffect(() => {
    if (until === null) return undefined;
    const id = setInterval(() => setClock((c) => c && { ...c, now: Date.now() }), 1000);
    return () => clearInterval(id);
  }, [until]);
  const start = useCallback((seconds: number | null) => {
    const now = Date.now();
    setClock(seconds === null ? null : { until: now + seconds * 1000, now });
  }, []);
  return [clock === null ? null : Math.max(0, Math.ceil((clock.until - clock.now) / 1000)), start];
}

/** One button per OpenID Connect provider; nothing while they load or when none is configured. */
function ProviderButtons({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const providers = useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: ({ signal }) => listSignInProviders(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (providers.isError) {
    return (
      <p data-testid="login-providers-error" className="mt-4 text-xs text-slate-500">
        {t('login.provider.loadError')}
      </p>
    );
  }
  const items = providers.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <div data-testid="login-providers" className="mt-6 border-t border-slate-200 pt-4">
      <div className="flex flex-col gap-2">
        {items.map((p) => (
          <a
            key={p.name}
            data-testid={`login-provider-${p.name}`}
            href={signInProviderUrl(p.name, returnTo)}
            className="w-full rounded-md border border-slate-300 px-4 py-2 text-center text-sm font-semibold text-slate-700 hover:bg-slate-50"
          >
            {t('login.provider.with', { name: p.displayName })}
          </a>
        ))}
      </div>
      <p className="mt-2 text-center text-xs text-slate-500">{t('login.provider.or')}</p>
    </div>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const [secondsLeft, startCountdown] = useCountdown();
  const [search] = useSearchParams();
  const providerError = providerErrorMessage(search.get('signInError'), t);

  const mutation = useMutation({
    mutationFn: login,
    retry: false,
    onSuccess: (session) => {
      // The session continues in the account this user chose last (never in one chosen by a previous user).
      setAccountOwner(session.user.username);
      queryClient.clear();
      queryClient.setQueryData(authKeys.me(), session.user);
      void navigate(redirectTarget(location.state), { replace: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.retryAfterSeconds !== undefined && error.retryAfterSeconds > 0) {
        startCountdown(error.retryAfterSeconds);
      } else {
        startCountdown(null);
      }
    },
  });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (username.trim() === '' || password === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    mutation.mutate({ username: username.trim(), password });
  };

  let message: string | null = null;
  if (missing) message = t('login.required');
  else if (providerError !== null && !mutation.isError && !mutation.isSuccess) message = providerError;
  else if (mutation.isError) {
    message = loginErrorMessage(mutation.error, t, secondsLeft ?? undefined);
  }

  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-slate-100 to-indigo-50">
      <div className="flex justify-end p-4">
        <LanguageSwitch />
      </div>
      <main className="flex flex-1 items-start justify-center px-4 pt-16">
        <form
          onSubmit={onSubmit}
          noValidate
          aria-labelledby="login-title"
          className="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-8 shadow-lg"
        >
          <div className="mb-6 flex items-center gap-3">
            <img src="/favicon.svg" alt="" className="h-9 w-9" />
            <div>
              <h1 id="login-title" className="text-xl font-semibold text-slate-900">
                {t('login.title')}
              </h1>
              <p className="text-sm text-slate-500">{t('login.subtitle')}</p>
            </div>
          </div>
          <label className="mb-4 block">
            <span className="mb-1 block text-sm font-medium text-slate-700">{t('login.username')}</span>
            <input
              data-testid="login-username"
              name="username"
              autoComplete="username"
              autoFocus
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200"
            />
          </label>
          <label className="mb-4 block">
            <span className="mb-1 block text-sm font-medium text-slate-700">{t('login.password')}</span>
            <input
              data-testid="login-password"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200"
            />
          </label>
          {message !== null && (
            <p
              role="alert"
              data-testid="login-error"
              data-code={isApiError(mutation.error) ? mutation.error.code : (search.get('signInError') ?? undefined)}
              className="mb-4 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700"
            >
              {message}
            </p>
          )}
          <button
            type="submit"
            data-testid="login-submit"
            disabled={mutation.isPending}
            className="w-full rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {mutation.isPending ? t('login.submitting') : t('login.submit')}
          </button>
          <ProviderButtons returnTo={redirectTarget(location.state)} />
        </form>
      </main>
    </div>
  );
}
