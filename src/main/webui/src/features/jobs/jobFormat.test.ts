import { describe, expect, it } from 'vitest';
import { requestEntries } from './jobFormat';

describe('requestEntries', () => {
  it('shows accelerators as counts, cpu as cores and memory as GiB, accelerators first', () => {
    expect(requestEntries({ memory: '32Gi', cpu: '8', 'nvidia-a100-80gb': '4' })).toEqual([
      { resource: 'nvidia-a100-80gb', kind: 'accelerator', amount: '4' },
      { resource: 'cpu', kind: 'cpu', amount: '8' },
      { resource: 'memory', kind: 'memory', amount: '32' },
    ]);
  });

  it('handles milli-cores, odd memory, zero amounts and unparsable quantities', () => {
    expect(requestEntries({ cpu: '500m', memory: '1536Mi', 'ascend-910b': '0' })).toEqual([
      { resource: 'cpu', kind: 'cpu', amount: '0.5' },
      { resource: 'memory', kind: 'memory', amount: '1.5' },
    ]);
    expect(requestEntries({ cpu: 'lots' })).toEqual([{ resource: 'cpu', kind: 'cpu', amount: 'lots' }]);
    expect(requestEntries(null)).toEqual([]);
  });
});
