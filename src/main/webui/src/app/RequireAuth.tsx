import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import type { Role } from '../api/types';
import { isApiError } from '../api/errors';
import { CurrentUserContext, meQuery, useCurrentUser } from '../features/auth/session';
import { ErrorState, LoadingState } from '../components/common/States';
import { setAccountOwner } from '../lib/currentAccount';

/** Renders its children only for a signed-in user; otherwise sends the browser to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const me = useQuery(meQuery());

  if (me.isPending) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <LoadingState />
      </div>
    );
  }
  if (me.isError) {
    if (isApiError(me.error) && me.error.status === 401) {
      return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
    }
    return (
      <div className="mx-auto mt-16 max-w-lg">
        <ErrorState title={t('common.errorTitle')} error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  }
  // Before the pages below send their first requests: their X-Crater-Account is this user's last choice.
  setAccountOwner(me.data.username);
  return <CurrentUserContext.Provider value={me.data}>{children}</CurrentUserContext.Provider>;
}

/** Shows a "not allowed" message to users without the role. */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (user.role !== role) {
    return (
      <div data-testid="forbidden" className="mx-auto mt-12 max-w-md text-center">
        <h1 className="text-xl font-semibold text-slate-900">{t('forbidden.title')}</h1>
        <p className="mt-1 text-sm text-slate-500">{t('forbidden.detail')}</p>
      </div>
    );
  }
  return <>{children}</>;
}
