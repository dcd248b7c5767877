import type { Notification } from '../../api/types';

/** Unread notifications, newest first. */
export function unreadNotifications(items: readonly Notification[]): Notification[] {
  return items.filter((n) => n.readAt === null).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Badge text for the unread count: nothing for 0, "99+" above 99. */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

/** Only in-app links are followed by the router; anything else is ignored. */
export function internalLink(link: string | null): string | null {
  if (link === null || !link.startsWith('/') || link.startsWith('//')) return null;
  return link;
}
