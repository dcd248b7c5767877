import { describe, expect, it } from 'vitest';
import { randomUuid } from './uuid';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  it('uses crypto.randomUUID where the browser has it', () => {
    expect(randomUuid({ randomUUID: () => 'from-browser', getRandomValues: (a) => a })).toBe('from-browser');
  });

  it('builds a version 4 UUID from random bytes outside a secure context', () => {
    const fill = <T extends ArrayBufferView | null>(a: T): T => {
      if (a instanceof Uint8Array) a.fill(0xff);
      return a;
    };
    expect(randomUuid({ getRandomValues: fill })).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    const zero = <T extends ArrayBufferView | null>(a: T): T => a;
    expect(randomUuid({ getRandomValues: zero })).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('gives a different valid UUID each time', () => {
    const a = randomUuid();
    const b = randomUuid();
    expect(a).toMatch(V4);
    expect(b).toMatch(V4);
    expect(a).not.toBe(b);
  });
});
