import { describe, expect, it } from 'vitest';
import { cardMemoryText, chartScale, chartTicks, freeSplit, modelNames, shareWidth, sortedRoom } from './freeGpus';

const node = (total: number, free: number, schedulable = true) => ({ name: 'n', total, free, memoryMiB: null, schedulable });

describe('free GPUs', () => {
  it.each([
    ['all free', 8, 8, [node(8, 8)], { free: 8, taken: 0, offline: 0 }],
    ['some held', 16, 5, [node(8, 5), node(8, 0)], { free: 5, taken: 11, offline: 0 }],
    ['a cordoned node', 16, 5, [node(8, 5), node(8, 0, false)], { free: 5, taken: 3, offline: 8 }],
    ['every node cordoned', 8, 0, [node(8, 0, false)], { free: 0, taken: 0, offline: 8 }],
    ['no cards', 0, 0, [], { free: 0, taken: 0, offline: 0 }],
  ])('splits a model with %s into parts that add up to its cards', (_, total, free, nodes, want) => {
    const split = freeSplit({ total, free, nodes });
    expect(split).toEqual({ ...want, total });
    expect(split.free + split.taken + split.offline).toBe(total);
  });

  it('draws shares of a scale as CSS widths, nothing of an empty scale', () => {
    expect(shareWidth(5, 16)).toBe('31.25%');
    expect(shareWidth(1, 3)).toBe('33.33%');
    expect(shareWidth(16, 16)).toBe('100%');
    expect(shareWidth(0, 16)).toBe('0%');
    expect(shareWidth(3, 0)).toBe('0%');
  });

  it('puts every model on the scale of the largest, with whole-card ticks', () => {
    expect(chartScale([{ total: 16 }, { total: 8 }])).toBe(16);
    expect(chartScale([])).toBe(1);
    expect(chartTicks(16)).toEqual([0, 8, 16]);
    expect(chartTicks(7)).toEqual([0, 7]);
    expect(chartTicks(1)).toEqual([0, 1]);
  });

  it('says one card memory with its unit', () => {
    expect(cardMemoryText(81920)).toBe('80 GiB');
    expect(cardMemoryText(24564)).toBe('24 GiB');
    expect(cardMemoryText(512)).toBe('512 MiB');
    expect(cardMemoryText(null)).toBeNull();
    expect(cardMemoryText(0)).toBeNull();
  });

  it('names models by the answer, and a model it does not list by its key', () => {
    const nameOf = modelNames([{ model: 'nvidia-a100-80gb', displayName: 'NVIDIA A100 80GB' }]);
    expect(nameOf('nvidia-a100-80gb')).toBe('NVIDIA A100 80GB');
    expect(nameOf('ascend-910b')).toBe('ascend-910b');
  });

  it("orders an account's models by what it may still use, then by use", () => {
    const room = (model: string, mayStillUse: number, used: number) => ({
      model,
      used,
      guaranteed: 0,
      max: 0,
      withinGuarantee: 0,
      memberLeft: null,
      mayStillUse,
    });
    const sorted = sortedRoom({ account: 'a', models: [room('c', 0, 0), room('b', 0, 2), room('a', 4, 0)] });
    expect(sorted.map((r) => r.model)).toEqual(['a', 'b', 'c']);
  });
});
