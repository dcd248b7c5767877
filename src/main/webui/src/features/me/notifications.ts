import type { Notification } from '../../api/types';
import codes from '../../i18n/reasonCodes.json';

const KINDS = new Set<string>(codes.notifications);

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Unread notifications, newest first. */
export function unreadNotifications(items: readonly Notification[]): Notification[] {
  return items.filter((n) => n.readAt === null).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Badge text for the unread count: nothing for 0, "99+" above 99. */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

/**
 * The bell's count: unread notifications plus requests waiting for one's review ("99+" above 99, or when
 * more reviews wait than the first page holds).
 */
export function bellBadge(unread: number, reviews: { count: number; more: boolean } | undefined): string | null {
  const total = unread + (reviews?.count ?? 0);
  if (reviews?.more && total <= 99) return `${total}+`;
  return unreadBadge(total);
}

/** Only in-app links are followed by the router; anything else is ignored. */
export function internalLink(link: string | null): string | null {
  if (link === null || !link.startsWith('/') || link.startsWith('//')) return null;
  return link;
}

/**
 * What a notification says, in the UI language, from its kind and arguments; the server's English text for
 * notifications written without arguments or of a kind the console does not know.
 */
export function notificationText(n: Notification, t: Translate, nameOf: (key: string) => string = (k) => k): string {
  const args = n.args;
  if (!args || !KINDS.has(n.kind)) return n.message;
  const key = `notifications.kinds.${n.kind}`;
  const values: Record<string, unknown> = { ...args };
  if (typeof args.model === 'string') values.model = nameOf(args.model);
  if (typeof args.accelerators === 'number') values.count = args.accelerators;
  if (typeof args.peakPercent === 'number') values.peak = args.peakPercent.toFixed(1);
  if (typeof args.periodEnd === 'string') values.periodEnd = `${args.periodEnd.slice(0, 16).replace('T', ' ')} UTC`;
  if (typeof args.requestKind === 'string')
    values.requestKind = t(`approvals.kinds.${args.requestKind}`, { defaultValue: args.requestKind });
  if (n.kind === 'job.failed' || n.kind === 'job.waiting') {
    const parts = [args.reason, args.detail].filter((x): x is string => typeof x === 'string' && x !== '');
    values.reason = n.kind === 'job.waiting' && parts.length > 1 ? parts[1] : parts.join(': ') || '—';
  }
  if (n.kind === 'job.failed' && typeof args.exitCode === 'number') {
    values.exitReasonText = typeof args.exitReason === 'string' && args.exitReason !== '' ? ` (${args.exitReason})` : '';
    return t(`${key}WithExit`, values);
  }
  if (n.kind === 'job.node-drained' && typeof args.requeued === 'string' && args.requeued !== '') {
    return t(`${key}Requeued`, values);
  }
  if (n.kind.startsWith('approval.') && typeof args.comment === 'string' && args.comment !== '') {
    return t(`${key}WithComment`, values);
  }
  return t(key, values);
}
