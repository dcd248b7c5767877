import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { logout } from '../api/auth';
import { useCurrentUser } from '../features/auth/session';
import { LiveIndicator } from '../features/cluster/LiveIndicator';
import { AccountSelector } from '../features/me/AccountSelector';
import { NotificationsBell } from '../features/me/NotificationsBell';
import { setAccountOwner } from '../lib/currentAccount';
import { ErrorBoundary } from './ErrorBoundary';
import { LanguageSwitch } from './LanguageSwitch';

function navClass({ isActive }: { isActive: boolean }): string {
  const base = 'block rounded-md px-3 py-2 text-sm font-medium';
  return isActive ? `${base} bg-indigo-50 text-indigo-700` : `${base} text-slate-600 hover:bg-slate-100 hover:text-slate-900`;
}

function SideNav() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <nav data-testid="app-nav" aria-label={t('nav.label')} className="flex flex-col gap-6 p-4">
      <div>
        <h2 className="mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-slate-400">{t('nav.userArea')}</h2>
        <NavLink to="/" end data-testid="nav-overview" className={navClass}>
          {t('nav.overview')}
        </NavLink>
        <NavLink to="/gpus" data-testid="nav-gpus" className={navClass}>
          {t('nav.gpus')}
        </NavLink>
        <NavLink to="/free-gpus" data-testid="nav-free-gpus" className={navClass}>
          {t('nav.freeGpus')}
        </NavLink>
        <NavLink to="/jobs" data-testid="nav-jobs" className={navClass}>
          {t('nav.jobs')}
        </NavLink>
        <NavLink to="/templates" data-testid="nav-templates" className={navClass}>
          {t('nav.templates')}
        </NavLink>
        <NavLink to="/files" data-testid="nav-files" className={navClass}>
          {t('nav.files')}
        </NavLink>
        <NavLink to="/data" data-testid="nav-data" className={navClass}>
          {t('nav.data')}
        </NavLink>
        <NavLink to="/images" data-testid="nav-images" className={navClass}>
          {t('nav.images')}
        </NavLink>
        <NavLink to="/tensorboards" data-testid="nav-tensorboards" className={navClass}>
          {t('nav.tensorboards')}
        </NavLink>
        <NavLink to="/accounts" data-testid="nav-accounts" className={navClass}>
          {t('nav.accounts')}
        </NavLink>
        <NavLink to="/approvals" data-testid="nav-approvals" className={navClass}>
          {t('nav.approvals')}
        </NavLink>
        <NavLink to="/profile" data-testid="nav-profile" className={navClass}>
          {t('nav.profile')}
        </NavLink>
        <NavLink to="/notifications" data-testid="nav-notification-settings" className={navClass}>
          {t('nav.notificationSettings')}
        </NavLink>
      </div>
      {user.role === 'admin' && (
        <div data-testid="admin-nav">
          <h2 className="mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-slate-400">{t('nav.adminArea')}</h2>
          <NavLink to="/admin/nodes" data-testid="nav-nodes" className={navClass}>
            {t('nav.nodes')}
          </NavLink>
          <NavLink to="/admin/jobs" data-testid="nav-admin-jobs" className={navClass}>
            {t('adminJobs.nav')}
          </NavLink>
          <NavLink to="/admin/users" data-testid="nav-users" className={navClass}>
            {t('nav.users')}
          </NavLink>
          <NavLink to="/admin/accelerators" data-testid="nav-accelerators" className={navClass}>
            {t('nav.accelerators')}
          </NavLink>
          <NavLink to="/prices" data-testid="nav-prices" className={navClass}>
            {t('nav.prices')}
          </NavLink>
          <NavLink to="/admin/readiness" data-testid="nav-readiness" className={navClass}>
            {t('nav.readiness')}
          </NavLink>
          <NavLink to="/admin/audit" data-testid="nav-audit" className={navClass}>
            {t('nav.audit')}
          </NavLink>
        </div>
      )}
    </nav>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const signOut = async () => {
    setBusy(true);
    try {
      await logout();
    } catch {
      // The session ends client-side either way.
    }
    await navigate('/login', { replace: true });
    setAccountOwner(null);
    queryClient.clear();
  };

  return (
    <div className="flex items-center gap-3">
      <div className="hidden text-right sm:block">
        <p data-testid="user-name" className="text-sm font-medium text-slate-800">
          {user.displayName || user.username}
        </p>
        <p className="text-xs text-slate-500">
          {user.username} · {t(`header.role.${user.role}`)}
        </p>
      </div>
      <button
        type="button"
        data-testid="sign-out"
        disabled={busy}
        onClick={() => void signOut()}
        className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-60"
      >
        {t('header.signOut')}
      </button>
    </div>
  );
}

/** Layout of every signed-in page: header, left navigation and the routed content. */
export function AppShell() {
  const { t } = useTranslation();
  const location = useLocation();
  const user = useCurrentUser();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900">
      <header className="sticky top-0 z-10 flex h-14 items-center justify-between gap-4 border-b border-slate-200 bg-white px-4">
        <div className="flex shrink-0 items-center gap-3">
          <img src="/favicon.svg" alt="" className="h-7 w-7" />
          <span className="text-lg font-semibold tracking-tight">{t('app.name')}</span>
          <span className="hidden text-sm text-slate-400 md:inline">{t('app.tagline')}</span>
          {user.role === 'admin' && <LiveIndicator />}
        </div>
        <div className="flex min-w-0 items-center gap-4">
          <AccountSelector />
          <NotificationsBell />
          <LanguageSwitch />
          <UserMenu />
        </div>
      </header>
      <div className="flex flex-1">
        <aside className="w-52 shrink-0 border-r border-slate-200 bg-white">
          <SideNav />
        </aside>
        <main className="min-w-0 flex-1 p-6">
          <ErrorBoundary key={location.pathname}>
            <Outlet />
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
