import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { FakeEventSource, installFakeEventSource } from '../../test/fakeEventSource';
import { useLogStream } from './useLogStream';

beforeEach(() => {
  vi.useFakeTimers();
  installFakeEventSource();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Opens the latest stream of `url` and sends it `lines`, then lets the batch be shown. */
function send(url: string, lines: string[]) {
  const source = FakeEventSource.latest(url)!;
  act(() => {
    if (source.readyState !== FakeEventSource.OPEN) source.open();
    for (const line of lines) source.emit('message', line);
    vi.advanceTimersByTime(200);
  });
}

describe('useLogStream', () => {
  it('shows the lines of the stream it follows, and another stream from empty', () => {
    const { result, rerender } = renderHook(({ url }: { url: string | null }) => useLogStream(url), {
      initialProps: { url: '/logs/a' },
    });
    expect(result.current).toEqual({ lines: [], status: 'connecting' });
    send('/logs/a', ['a1', 'a2']);
    expect(result.current).toEqual({ lines: ['a1', 'a2'], status: 'live' });

    rerender({ url: '/logs/b' });
    expect(result.current).toEqual({ lines: [], status: 'connecting' });
    expect(FakeEventSource.latest('/logs/a')!.readyState).toBe(FakeEventSource.CLOSED);
    send('/logs/b', ['b1']);
    expect(result.current).toEqual({ lines: ['b1'], status: 'live' });
  });

  it('keeps what it showed when it stops following, and starts afresh when it follows again', () => {
    const { result, rerender } = renderHook(({ url }: { url: string | null }) => useLogStream(url), {
      initialProps: { url: '/logs/a' as string | null },
    });
    send('/logs/a', ['a1']);
    rerender({ url: null });
    expect(result.current).toEqual({ lines: ['a1'], status: 'live' });
    rerender({ url: '/logs/a' });
    expect(result.current).toEqual({ lines: [], status: 'connecting' });
    expect(FakeEventSource.instances).toHaveLength(2);
  });

  it('has ended at once where the browser has no EventSource', () => {
    vi.stubGlobal('EventSource', undefined);
    const { result } = renderHook(() => useLogStream('/logs/a'));
    expect(result.current).toEqual({ lines: [], status: 'ended' });
  });
});
