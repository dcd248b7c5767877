import { describe, expect, it } from 'vitest';
import { buildSubmitJob, defaultJobForm } from './jobForm';
import {
  addNodeNames,
  isNodeName,
  isNodesField,
  nodeFieldErrorText,
  nodeTargetsBody,
  nodeTargetsFromSpec,
  nodeTargetsProblem,
  splitNodeNames,
} from './nodeTargets';

describe('node names', () => {
  it.each([
    ['a100-1', true],
    ['node.zone-a.example', true],
    ['0', true],
    ['A100-1', false],
    ['a100_1', false],
    ['-a100', false],
    ['a100-', false],
    ['a..b', false],
    ['', false],
    ['a'.repeat(253), true],
    ['a'.repeat(254), false],
  ])('%s is a node name: %s', (name, ok) => {
    expect(isNodeName(name)).toBe(ok);
  });

  it('splits what is typed or pasted at commas and white space, and adds each name once', () => {
    expect(splitNodeNames(' a100-1, a100-2\na100-3 ,, ')).toEqual(['a100-1', 'a100-2', 'a100-3']);
    expect(addNodeNames(['a100-1'], ['a100-2', 'a100-1', 'a100-2'])).toEqual(['a100-1', 'a100-2']);
  });
});

describe('the nodes field', () => {
  it('says the first problem the server would refuse', () => {
    expect(nodeTargetsProblem({ mode: 'any', names: ['BAD'] })).toBeNull();
    expect(nodeTargetsProblem({ mode: 'use', names: [] })).toEqual({ key: 'jobs.nodes.required' });
    expect(nodeTargetsProblem({ mode: 'avoid', names: ['a100-1', 'Bad'] })).toEqual({
      key: 'jobs.nodes.invalidName',
      values: { name: 'Bad' },
    });
    expect(nodeTargetsProblem({ mode: 'use', names: ['a', 'b', 'a'] })).toEqual({ key: 'jobs.nodes.twice', values: { name: 'a' } });
    const many = Array.from({ length: 65 }, (_, i) => `n-${i}`);
    expect(nodeTargetsProblem({ mode: 'use', names: many })).toEqual({ key: 'jobs.nodes.tooMany', values: { max: 64, count: 65 } });
    expect(nodeTargetsProblem({ mode: 'use', names: many.slice(0, 64) })).toBeNull();
  });

  it('sends one list, never both, and nothing for any node', () => {
    expect(nodeTargetsBody({ mode: 'use', names: ['a', 'b'] })).toEqual({ use: ['a', 'b'] });
    expect(nodeTargetsBody({ mode: 'avoid', names: ['a'] })).toEqual({ avoid: ['a'] });
    expect(nodeTargetsBody({ mode: 'any', names: ['a'] })).toBeUndefined();
  });

  it("reads a spec's nodes back into the field", () => {
    expect(nodeTargetsFromSpec({ use: ['a'] })).toEqual({ mode: 'use', names: ['a'] });
    expect(nodeTargetsFromSpec({ use: null, avoid: ['b'] })).toEqual({ mode: 'avoid', names: ['b'] });
    expect(nodeTargetsFromSpec(null)).toEqual({ mode: 'any', names: [] });
    expect(nodeTargetsFromSpec({ use: [], avoid: [] })).toEqual({ mode: 'any', names: [] });
  });

  it("puts the server's node errors under the field, naming the node an indexed one is about", () => {
    expect(['nodes', 'nodes.use', 'nodes.avoid[3]'].map(isNodesField)).toEqual([true, true, true]);
    expect(isNodesField('nodesX')).toBe(false);
    expect(nodeFieldErrorText('nodes.avoid[1]', 'bad', ['a', 'B'])).toBe('B: bad');
    expect(nodeFieldErrorText('nodes.use[5]', 'bad', ['a'])).toBe('bad');
    expect(nodeFieldErrorText('nodes', 'not both', ['a'])).toBe('not both');
  });

  it('is checked with the rest of the form and sent in the body', () => {
    const base = { ...defaultJobForm(), name: 'n', image: 'python:3.12', command: 'python x.py' };
    expect(buildSubmitJob({ ...base, nodes: { mode: 'use', names: [] } })).toMatchObject({
      body: null,
      errors: { nodes: { key: 'jobs.nodes.required' } },
    });
    expect(buildSubmitJob({ ...base, nodes: { mode: 'avoid', names: ['a100-4'] } }).body?.nodes).toEqual({ avoid: ['a100-4'] });
    expect(buildSubmitJob(base).body).not.toHaveProperty('nodes');
  });
});
