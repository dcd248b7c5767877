import { describe, expect, it } from 'vitest';
import { internalLink, unreadBadge, unreadNotifications } from './notifications';

const n = (id: string, createdAt: string, readAt: string | null) => ({
  id,
  kind: 'approval',
  message: id,
  link: null,
  createdAt,
  readAt,
});

describe('notifications', () => {
  it('keeps unread ones, newest first', () => {
    const items = [
      n('a', '2025-01-01T10:00:00Z', null),
      n('b', '2025-01-02T10:00:00Z', '2025-01-02T11:00:00Z'),
      n('c', '2025-01-03T10:00:00Z', null),
    ];
    expect(unreadNotifications(items).map((x) => x.id)).toEqual(['c', 'a']);
  });
  it('formats the badge', () => {
    expect(unreadBadge(0)).toBeNull();
    expect(unreadBadge(3)).toBe('3');
    expect(unreadBadge(150)).toBe('99+');
  });
  it('follows only in-app links', () => {
    expect(internalLink('/approvals')).toBe('/approvals');
    expect(internalLink('https://evil.example')).toBeNull();
    expect(internalLink('//evil.example')).toBeNull();
    expect(internalLink(null)).toBeNull();
  });
});
