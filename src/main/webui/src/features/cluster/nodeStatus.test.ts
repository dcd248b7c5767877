import { describe, expect, it } from 'vitest';
import { nodeStatus, nodeStatusTone } from './nodeStatus';

describe('nodeStatus', () => {
  it('is Ready when ready and schedulable', () => {
    expect(nodeStatus({ ready: true, schedulable: true })).toBe('Ready');
  });
  it('is Cordoned when ready but not schedulable', () => {
    expect(nodeStatus({ ready: true, schedulable: false })).toBe('Cordoned');
  });
  it('is NotReady when not ready, whatever the schedulability', () => {
    expect(nodeStatus({ ready: false, schedulable: true })).toBe('NotReady');
    expect(nodeStatus({ ready: false, schedulable: false })).toBe('NotReady');
  });
  it('maps each status to a badge tone', () => {
    expect(nodeStatusTone('Ready')).toBe('success');
    expect(nodeStatusTone('Cordoned')).toBe('warning');
    expect(nodeStatusTone('NotReady')).toBe('danger');
  });
});
