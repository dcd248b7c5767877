import { describe, expect, it } from 'vitest';
import type { Approval, IdleDecision, IdleDecisionKind } from '../../api/types';
import { extensionUntil, idleWarningOf, pendingExtensionOf } from './idleWarning';

function decision(kind: IdleDecisionKind, over: Partial<IdleDecision> = {}): IdleDecision {
  return {
    kind,
    why: null,
    message: 'idle',
    peakPercent: 1.5,
    meanPercent: 0.4,
    thresholdPercent: 5,
    windowSeconds: 7200,
    stopAt: '2026-11-30T12:25:00Z',
    idleSince: null,
    lockUntil: null,
    numbers: null,
    ...over,
  };
}

describe('idleWarningOf', () => {
  it.each<IdleDecisionKind>(['Warn', 'Waiting'])('warns with the numbers and the stop time on %s', (kind) => {
    expect(idleWarningOf(decision(kind))).toEqual({
      stage: 'warned',
      peakPercent: 1.5,
      meanPercent: 0.4,
      thresholdPercent: 5,
      windowSeconds: 7200,
      stopAt: '2026-11-30T12:25:00Z',
    });
  });

  it('says a job due to be stopped goes at the next check', () => {
    expect(idleWarningOf(decision('Stop', { stopAt: null, idleSince: '2026-11-30T10:00:00Z' }))).toMatchObject({
      stage: 'stopping',
      stopAt: null,
    });
  });

  it.each<IdleDecisionKind>(['Busy', 'Unknown', 'Exempt'])('has no warning for %s', (kind) => {
    expect(idleWarningOf(decision(kind))).toBeNull();
  });

  it('has no warning without a decision', () => {
    expect(idleWarningOf(null)).toBeNull();
    expect(idleWarningOf(undefined)).toBeNull();
  });
});

describe('pendingExtensionOf', () => {
  const approval = (over: Partial<Approval>): Approval => ({
    id: 'a1',
    kind: 'job-lock',
    state: 'pending',
    account: 'vision-lab',
    requester: { username: 'alice', displayName: 'Alice' },
    resource: null,
    amount: null,
    until: '2026-11-30T20:00:00Z',
    model: null,
    jobId: 'j1',
    reason: 'still training',
    reviewer: null,
    comment: null,
    createdAt: '2026-11-30T12:00:00Z',
    decidedAt: null,
    ...over,
  });

  it('finds the pending job lock of the job', () => {
    const mine = approval({ id: 'a3' });
    expect(pendingExtensionOf([approval({ id: 'a1', jobId: 'j2' }), approval({ id: 'a2', state: 'rejected' }), mine], 'j1')).toBe(mine);
  });

  it('ignores other kinds and decided requests', () => {
    expect(
      pendingExtensionOf(
        [approval({ kind: 'quota-grant', jobId: null }), approval({ state: 'approved' }), approval({ state: 'cancelled' })],
        'j1',
      ),
    ).toBeNull();
  });
});

describe('extensionUntil', () => {
  it('asks for three hours, under the four after which a person must approve', () => {
    expect(extensionUntil(new Date('2026-11-30T12:00:00Z')).toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });
});
