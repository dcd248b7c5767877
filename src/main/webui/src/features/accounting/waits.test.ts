import { describe, expect, it } from 'vitest';
import { waitBars } from './waits';

describe('queue waits per group', () => {
  it('leaves out groups without admissions and orders by the longest 90th percentile', () => {
    const bars = waitBars([
      { key: 'ana', jobs: 3, meanSeconds: 30, p90Seconds: 60 },
      { key: 'ben', jobs: 0, meanSeconds: 0, p90Seconds: 0 },
      { key: 'cy', jobs: 5, meanSeconds: 100, p90Seconds: 240 },
      { key: 'al', jobs: 1, meanSeconds: 60, p90Seconds: 60 },
    ]);
    expect(bars.map((b) => b.key)).toEqual(['cy', 'al', 'ana']);
    expect(bars[0]).toMatchObject({ p90Width: 100, meanWidth: 100 * (100 / 240) });
    expect(bars[2]).toMatchObject({ p90Width: 25, meanWidth: 12.5 });
  });

  it('gives empty bars when every admitted job started at once', () => {
    expect(waitBars([{ key: '', jobs: 2, meanSeconds: 0, p90Seconds: 0 }])).toEqual([
      { key: '', jobs: 2, meanSeconds: 0, p90Seconds: 0, meanWidth: 0, p90Width: 0 },
    ]);
  });

  it('has nothing to show for no groups', () => {
    expect(waitBars([])).toEqual([]);
  });
});
