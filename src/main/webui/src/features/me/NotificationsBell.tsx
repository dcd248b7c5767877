import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { markNotificationRead } from '../../api/me';
import type { ItemList, Notification } from '../../api/types';
import { describeError } from '../../components/common/errorText';
import { formatDateTime } from '../../lib/time';
import { useModelNames } from '../catalog/queries';
import { meKeys, myNotificationsQuery } from './queries';
import { pendingReviewsQuery } from '../approvals/queries';
import { bellBadge, internalLink, notificationText, unreadNotifications } from './notifications';

/**
 * Bell with the count of unread notifications and of requests waiting for one's review (both polled every
 * 30 s) and a dropdown of them.
 */
export function NotificationsBell() {
  const { t, i18n } = useTranslation();
  const nameOf = useModelNames();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(myNotificationsQuery());
  const reviews = useQuery(pendingReviewsQuery());
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const markRead = useMutation({
    mutationFn: (ids: string[]) => Promise.all(ids.map((id) => markNotificationRead(id))),
    onSuccess: (_res, ids) => {
      const now = new Date().toISOString();
      queryClient.setQueryData<ItemList<Notification>>(meKeys.notifications(), (old) =>
        old ? { items: old.items.map((n) => (ids.includes(n.id) && n.readAt === null ? { ...n, readAt: now } : n)) } : old,
      );
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: meKeys.notifications() }),
  });

  const items = query.data?.items ?? [];
  const unread = unreadNotifications(items);
  const badge = bellBadge(unread.length, reviews.data);
  const reviewCount = reviews.data?.count ?? 0;
  const sorted = items.slice().sort((a, b) => b.createdAt.localeCompare(a.createdAt));

  const openItem = (n: Notification) => {
    if (n.readAt === null) markRead.mutate([n.id]);
    const link = internalLink(n.link);
    if (link) {
      setOpen(false);
      void navigate(link);
    }
  };

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        data-testid="notifications-bell"
        aria-haspopup="true"
        aria-expanded={open}
        aria-label={t('notifications.title')}
        onClick={() => setOpen((v) => !v)}
        className="relative rounded-full p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
          <path d="M10 2a5 5 0 00-5 5v2.6l-1.7 3A1 1 0 004.2 14h11.6a1 1 0 00.9-1.4l-1.7-3V7a5 5 0 00-5-5zm-2 13a2 2 0 004 0H8z" />
        </svg>
        {badge !== null && (
          <span
            data-testid="notifications-count"
            className="absolute -right-1 -top-1 min-w-5 rounded-full bg-rose-600 px-1 text-center text-[11px] font-semibold leading-5 text-white"
          >
            {badge}
          </span>
        )}
      </button>
      {open && (
        <div
          data-testid="notifications-panel"
          className="absolute right-0 z-30 mt-2 w-80 rounded-xl border border-slate-200 bg-white shadow-lg"
        >
          <div className="flex items-center justify-between border-b border-slate-100 px-4 py-2">
            <h2 className="text-sm font-semibold text-slate-800">{t('notifications.title')}</h2>
            {unread.length > 0 && (
              <button
                type="button"
                disabled={markRead.isPending}
                onClick={() => markRead.mutate(unread.map((n) => n.id))}
                className="text-xs font-medium text-indigo-600 hover:underline disabled:opacity-60"
              >
                {t('notifications.markAllRead')}
              </button>
            )}
          </div>
          {reviewCount > 0 && (
            <Link
              to="/approvals?scope=review"
              data-testid="notifications-reviews"
              onClick={() => setOpen(false)}
              className="block border-b border-slate-100 bg-amber-50 px-4 py-2.5 text-sm font-medium text-amber-900 hover:bg-amber-100"
            >
              {t('reviewsBell.waiting', { count: reviewCount, more: reviews.data?.more ? '+' : '' })}
            </Link>
          )}
          {query.isPending ? (
            <p className="px-4 py-3 text-sm text-slate-500">{t('common.loading')}</p>
          ) : query.isError ? (
            <p role="alert" className="px-4 py-3 text-sm text-rose-700">
              {t('notifications.loadError')} {describeError(query.error, '')}
            </p>
          ) : sorted.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-500">{t('notifications.empty')}</p>
          ) : (
            <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto">
              {sorted.map((n) => (
                <li key={n.id}>
                  <button
                    type="button"
                    data-testid="notification-item"
                    data-read={n.readAt !== null}
                    onClick={() => openItem(n)}
                    className={`block w-full px-4 py-2.5 text-left hover:bg-slate-50 ${n.readAt === null ? 'bg-indigo-50/50' : ''}`}
                  >
                    <span className="flex items-start gap-2">
                      {n.readAt === null && <span aria-hidden="true" className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-indigo-500" />}
                      <span className="min-w-0">
                        <span className="block text-sm text-slate-800" title={n.message}>
                          {notificationText(n, t, nameOf)}
                        </span>
                        <span className="block text-xs text-slate-500">
                          {formatDateTime(n.createdAt, i18n.language)}
                          {n.mail === 'sent' && <span data-testid="notification-mailed"> · {t('notifications.mailed')}</span>}
                          {n.mail === 'failed' && (
                            <span data-testid="notification-mail-failed" className="text-rose-700">
                              {' '}
                              · {t('notifications.mailFailed')}
                            </span>
                          )}
                          {n.readAt === null && <span className="sr-only"> · {t('notifications.unread')}</span>}
                        </span>
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
