import { describe, expect, it } from 'vitest';
import { quotaBar } from './quotaBar';

const k = (n: number) => n * 1000;

describe('quotaBar', () => {
  it('scales to the effective max and splits own and borrowed usage', () => {
    const bar = quotaBar({
      usedMilli: k(10),
      guaranteedMilli: k(8),
      maxMilli: k(16),
      grantedMilli: k(4),
      borrowedMilli: k(0),
    });
    expect(bar.scaleMilli).toBe(k(20));
    expect(bar.effectiveGuaranteedMilli).toBe(k(12));
    expect(bar.effectiveMaxMilli).toBe(k(20));
    expect(bar.ownPct).toBe(50);
    expect(bar.borrowedPct).toBe(0);
    expect(bar.guaranteedPct).toBe(60);
    expect(bar.maxPct).toBe(80);
    expect(bar.grantedPct).toBe(20);
    expect(bar.effectiveMaxPct).toBe(100);
    expect(bar.overMax).toBe(false);
  });

  it('shows borrowed usage above the guarantee', () => {
    const bar = quotaBar({ usedMilli: k(12), guaranteedMilli: k(8), maxMilli: k(16), grantedMilli: 0, borrowedMilli: k(4) });
    expect(bar.ownPct).toBe(50);
    expect(bar.borrowedPct).toBe(25);
    expect(bar.guaranteedPct).toBe(50);
    expect(bar.maxPct).toBe(100);
    expect(bar.grantedPct).toBe(0);
  });

  it('grows the scale when usage exceeds the max', () => {
    const bar = quotaBar({ usedMilli: k(20), guaranteedMilli: k(4), maxMilli: k(10), grantedMilli: 0, borrowedMilli: k(16) });
    expect(bar.scaleMilli).toBe(k(20));
    expect(bar.ownPct).toBe(20);
    expect(bar.borrowedPct).toBe(80);
    expect(bar.maxPct).toBe(50);
    expect(bar.overMax).toBe(true);
  });

  it('handles an empty quota and bad numbers without NaN', () => {
    const bar = quotaBar({ usedMilli: 0, guaranteedMilli: 0, maxMilli: 0, grantedMilli: 0, borrowedMilli: 0 });
    expect(bar).toMatchObject({ scaleMilli: 0, ownPct: 0, borrowedPct: 0, guaranteedPct: 0, maxPct: 0, grantedPct: 0 });
    const odd = quotaBar({ usedMilli: Number.NaN, guaranteedMilli: -5, maxMilli: k(3), grantedMilli: 0, borrowedMilli: k(9) });
    expect(odd.ownPct).toBe(0);
    expect(odd.borrowedPct).toBe(0);
    expect(odd.maxPct).toBe(100);
  });

  it('rounds to one decimal and never exceeds 100 in total', () => {
    const bar = quotaBar({ usedMilli: k(1), guaranteedMilli: 0, maxMilli: k(3), grantedMilli: 0, borrowedMilli: k(1) });
    expect(bar.ownPct).toBe(0);
    expect(bar.borrowedPct).toBe(33.3);
    const full = quotaBar({ usedMilli: k(3), guaranteedMilli: k(1), maxMilli: k(3), grantedMilli: 0, borrowedMilli: k(2) });
    expect(full.ownPct + full.borrowedPct).toBeLessThanOrEqual(100);
  });
});
