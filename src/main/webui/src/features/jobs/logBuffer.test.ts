import { describe, expect, it } from 'vitest';
import { makePod } from '../../test/jobFixtures';
import {
  LOG_STREAM_HEALTHY_MS,
  LOG_STREAM_MAX_RETRIES,
  MAX_LOG_LINES,
  appendLines,
  isNearBottom,
  logPodNames,
  mainPodName,
  nextRetryCount,
  selectedPod,
  splitLogText,
} from './logBuffer';

describe('appendLines', () => {
  it('appends below the cap', () => {
    expect(appendLines(['a', 'b'], ['c'], 5)).toEqual(['a', 'b', 'c']);
  });

  it('drops the oldest lines beyond the cap', () => {
    expect(appendLines(['a', 'b', 'c'], ['d', 'e'], 4)).toEqual(['b', 'c', 'd', 'e']);
    expect(appendLines(['a'], ['b', 'c', 'd', 'e', 'f'], 3)).toEqual(['d', 'e', 'f']);
    expect(appendLines(['a'], [], 0)).toEqual([]);
  });

  it('keeps 5,000 lines by default and leaves its arguments alone', () => {
    const old = Array.from({ length: MAX_LOG_LINES }, (_, i) => `line ${i}`);
    const out = appendLines(old, ['new']);
    expect(out).toHaveLength(MAX_LOG_LINES);
    expect(out[0]).toBe('line 1');
    expect(out.at(-1)).toBe('new');
    expect(old).toHaveLength(MAX_LOG_LINES);
    expect(old[0]).toBe('line 0');
  });
});

describe('splitLogText', () => {
  it('splits lines and drops the final newline only', () => {
    expect(splitLogText('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLogText('a\r\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLogText('')).toEqual([]);
  });
});

describe('main pod', () => {
  it('prefers the -main-0 or -master-0 pod', () => {
    expect(mainPodName([makePod('job-worker-0', { task: 'worker' }), makePod('job-master-0', { task: 'master' })])).toBe('job-master-0');
    expect(mainPodName([makePod('x-main-1', { index: 1 }), makePod('x-main-0')])).toBe('x-main-0');
  });

  it('falls back to the main task, then the first pod', () => {
    expect(mainPodName([makePod('a', { task: 'worker' }), makePod('b', { task: 'master', index: 0 })])).toBe('b');
    expect(mainPodName([makePod('a', { task: 'worker' }), makePod('c', { task: 'worker', index: 1 })])).toBe('a');
    expect(mainPodName([])).toBeNull();
  });

  it('lists the live pods, then the archived ones, once each', () => {
    expect(
      logPodNames([makePod('j-master-0'), makePod('j-worker-0')], [{ pod: 'j-worker-0' }, { pod: 'j-worker-1' }, { pod: 'j-worker-1' }]),
    ).toEqual(['j-master-0', 'j-worker-0', 'j-worker-1']);
  });

  it('keeps the user choice while the pod exists, else shows the main pod', () => {
    const pods = [makePod('j-worker-0', { task: 'worker' }), makePod('j-master-0', { task: 'master' })];
    const names = logPodNames(pods, []);
    expect(selectedPod('', pods, names)).toBe('j-master-0');
    expect(selectedPod('j-worker-0', pods, names)).toBe('j-worker-0');
    expect(selectedPod('gone', pods, names)).toBe('j-master-0');
    // Finished: no pods left, names from the archived exits.
    expect(selectedPod('', [], ['j-worker-0', 'j-master-0'])).toBe('j-master-0');
    expect(selectedPod('', [], [])).toBe('');
  });
});

describe('nextRetryCount', () => {
  it('gives up after a few short connections in a row', () => {
    let retries = 0;
    for (let i = 1; i <= LOG_STREAM_MAX_RETRIES; i += 1) {
      const next = nextRetryCount(retries, 200);
      expect(next).toBe(i);
      retries = next ?? 0;
    }
    expect(nextRetryCount(retries, 200)).toBeNull();
    expect(nextRetryCount(retries, null)).toBeNull();
  });

  it('starts again after a long healthy connection', () => {
    expect(nextRetryCount(LOG_STREAM_MAX_RETRIES, LOG_STREAM_HEALTHY_MS)).toBe(1);
  });
});

describe('isNearBottom', () => {
  it('sticks within a few pixels of the bottom', () => {
    expect(isNearBottom({ scrollTop: 600, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isNearBottom({ scrollTop: 590, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isNearBottom({ scrollTop: 300, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
  });
});
