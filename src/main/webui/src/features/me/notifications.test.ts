import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { internalLink, notificationText, unreadBadge, unreadNotifications } from './notifications';

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
  it('says the exit code of a failure when the server knew it, and only the reason when not', () => {
    const t = i18n.getFixedT('en');
    const failed = (args: Record<string, string | number>) => ({
      id: '1',
      kind: 'job.failed',
      message: 'server',
      args,
      link: null,
      createdAt: '',
      readAt: null,
    });
    expect(
      notificationText(failed({ job: 'ab12cd', name: 'sweep', reason: 'PodFailed', detail: '', exitCode: 1, exitReason: '' }), t),
    ).toBe('Your job sweep (ab12cd) failed with exit code 1: PodFailed.');
    expect(
      notificationText(failed({ job: 'ab12cd', name: 'sweep', reason: 'VolcanoJobDeleted', detail: 'deleted outside Crater' }), t),
    ).toBe('Your job sweep (ab12cd) failed: VolcanoJobDeleted: deleted outside Crater.');
  });

  it('names the copy that waits in its place when a drain requeued the job', () => {
    const drained = (args: Record<string, string>) => ({
      id: '2',
      kind: 'job.node-drained',
      message: 'server',
      args,
      link: null,
      createdAt: '',
      readAt: null,
    });
    const base = { job: 'jab12cd', name: 'sweep', node: 'a100-1', reason: 'memory test' };
    expect(notificationText(drained(base), i18n.getFixedT('en'))).toBe(
      'Your job sweep (jab12cd) is being stopped: node a100-1 was drained (memory test).',
    );
    expect(notificationText(drained({ ...base, requeued: 'jxy34ab' }), i18n.getFixedT('en'))).toBe(
      'Your job sweep (jab12cd) is being stopped: node a100-1 was drained (memory test). A copy, jxy34ab, waits in its place in line.',
    );
    expect(notificationText(drained({ ...base, requeued: 'jxy34ab' }), i18n.getFixedT('zh-CN'))).toContain('jxy34ab');
  });
});
