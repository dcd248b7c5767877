import { describe, expect, it } from 'vitest';
import type { ClusterNode, ItemList, NodeDetail } from '../../api/types';
import { makeNode } from '../../test/fixtures';
import { applyNodeEvent, applyNodeEventToDetail, parseNodeEvent } from './nodeEvents';

function list(...nodes: ClusterNode[]): ItemList<ClusterNode> {
  return { items: nodes };
}

describe('applyNodeEvent', () => {
  it('replaces an updated node in place and keeps the others', () => {
    const before = list(makeNode('a100-0'), makeNode('a100-1'), makeNode('cpu-0', { accelerator: null }));
    const changed = makeNode('a100-1', { schedulable: false, pods: 9 });
    const after = applyNodeEvent(before, { type: 'updated', node: changed });
    expect(after?.items.map((n) => n.name)).toEqual(['a100-0', 'a100-1', 'cpu-0']);
    expect(after?.items[1]).toBe(changed);
    expect(after?.items[1]?.pods).toBe(9);
    expect(after?.items[0]).toBe(before.items[0]);
  });

  it('does not mutate the cached list', () => {
    const before = list(makeNode('a100-0'));
    const snapshot = structuredClone(before);
    applyNodeEvent(before, { type: 'updated', node: makeNode('a100-0', { ready: false }) });
    applyNodeEvent(before, { type: 'deleted', node: makeNode('a100-0') });
    expect(before).toEqual(snapshot);
  });

  it('appends a node it has not seen', () => {
    const after = applyNodeEvent(list(makeNode('a100-0')), { type: 'updated', node: makeNode('h100-0') });
    expect(after?.items.map((n) => n.name)).toEqual(['a100-0', 'h100-0']);
  });

  it('removes a deleted node', () => {
    const after = applyNodeEvent(list(makeNode('a100-0'), makeNode('a100-1')), {
      type: 'deleted',
      node: makeNode('a100-0'),
    });
    expect(after?.items.map((n) => n.name)).toEqual(['a100-1']);
  });

  it('ignores the deletion of an unknown node', () => {
    const after = applyNodeEvent(list(makeNode('a100-0')), { type: 'deleted', node: makeNode('gone') });
    expect(after?.items.map((n) => n.name)).toEqual(['a100-0']);
  });

  it('leaves an empty cache empty', () => {
    expect(applyNodeEvent(undefined, { type: 'updated', node: makeNode('a100-0') })).toBeUndefined();
  });
});

describe('applyNodeEventToDetail', () => {
  const detail = (node: ClusterNode): NodeDetail => ({
    node,
    conditions: [],
    pods: [
      {
        namespace: 'crater-jobs',
        name: 'c-ab-main-0',
        phase: 'Running',
        job: 'ab',
        cpuMilli: 1000,
        memoryBytes: 1,
        accelerators: 1,
        createdAt: null,
      },
    ],
    jobs: [],
    events: [],
    eventsUnavailable: null,
  });

  it('puts the updated node into its detail and keeps the pods until the refetch', () => {
    const before = detail(makeNode('a100-0'));
    const cordoned = makeNode('a100-0', { schedulable: false, cordon: { reason: 'fan', by: 'ada', at: '2026-12-02T06:00:00Z' } });
    const after = applyNodeEventToDetail(before, { type: 'updated', node: cordoned });
    expect(after?.node).toBe(cordoned);
    expect(after?.pods).toBe(before.pods);
    expect(before.node.cordon).toBeNull();
  });

  it('leaves the detail of another node, a deleted node and an empty cache as they are', () => {
    const before = detail(makeNode('a100-0'));
    expect(applyNodeEventToDetail(before, { type: 'updated', node: makeNode('a100-1') })).toBe(before);
    expect(applyNodeEventToDetail(before, { type: 'deleted', node: makeNode('a100-0') })).toBe(before);
    expect(applyNodeEventToDetail(undefined, { type: 'updated', node: makeNode('a100-0') })).toBeUndefined();
  });
});

describe('parseNodeEvent', () => {
  it('parses a valid event', () => {
    const node = makeNode('a100-3');
    expect(parseNodeEvent(JSON.stringify({ type: 'deleted', node }))).toEqual({ type: 'deleted', node });
  });
  it('rejects malformed data', () => {
    expect(parseNodeEvent('not json')).toBeNull();
    expect(parseNodeEvent('{"type":"created","node":{"name":"x"}}')).toBeNull();
    expect(parseNodeEvent('{"type":"updated","node":{}}')).toBeNull();
    expect(parseNodeEvent('null')).toBeNull();
  });
});
