import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FakeEventSource, installFakeEventSource } from '../../test/fakeEventSource';
import { useJobEvents } from './useJobEvents';

beforeEach(() => installFakeEventSource());
afterEach(() => vi.unstubAllGlobals());

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

describe('useJobEvents', () => {
  it("reports the state of the current topic's stream: another topic's stream is connecting until it opens", () => {
    const { result, rerender } = renderHook(({ topic }: { topic: string | null }) => useJobEvents(topic), {
      initialProps: { topic: 'job:a' as string | null },
      wrapper,
    });
    expect(result.current).toBe('connecting');
    act(() => FakeEventSource.latest('job%3Aa')!.open());
    expect(result.current).toBe('live');

    rerender({ topic: 'job:b' });
    expect(result.current).toBe('connecting');
    expect(FakeEventSource.latest('job%3Aa')!.readyState).toBe(FakeEventSource.CLOSED);
    act(() => FakeEventSource.latest('job%3Ab')!.open());
    expect(result.current).toBe('live');
  });

  it('opens nothing without a topic', () => {
    const { result } = renderHook(() => useJobEvents(null), { wrapper });
    expect(result.current).toBe('connecting');
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
