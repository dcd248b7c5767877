import { useEffect, useState } from 'react';
import { jobGpuMetricsStreamUrl } from '../../api/jobs';
import { openEventStream } from '../../api/sse';
import type { GpuMetricEnd, GpuMetricSample, GpuMetricUnavailable, GpuMetricWindow } from '../../api/types';
import { addSamples, addWindow, EMPTY_VIEW, type GpuMetricsView } from './gpuMetricsBuffer';

/**
 * connecting: before the first window; live: samples arrive; reconnecting: the stream dropped and is being reopened
 * (the browser resends the last id, so nothing comes twice); ended: the job is over and the stream closed.
 */
export type GpuStreamStatus = 'connecting' | 'live' | 'reconnecting' | 'ended';

interface Followed {
  jobId: string | null;
  view: GpuMetricsView;
  status: GpuStreamStatus;
  /** Whether a window arrived on this page (an empty chart then means no samples yet, not loading). */
  loaded: boolean;
}

function parse<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

/** Follows a job's GPU metrics stream while `jobId` is set: the cards' series and the stream's state. */
export function useGpuMetricsStream(jobId: string | null): Omit<Followed, 'jobId'> {
  const [state, setState] = useState<Followed>({ jobId: null, view: EMPTY_VIEW, status: 'connecting', loaded: false });

  useEffect(() => {
    if (jobId === null || typeof EventSource === 'undefined') return undefined;
    const update = (change: (f: Followed) => Partial<Followed>) =>
      setState((prev) => {
        const f = prev.jobId === jobId ? prev : { jobId, view: EMPTY_VIEW, status: 'connecting' as const, loaded: false };
        return { ...f, ...change(f) };
      });
    let stop: () => void = () => undefined;
    stop = openEventStream({
      url: jobGpuMetricsStreamUrl(jobId),
      handlers: {
        window: (msg) => {
          const w = parse<GpuMetricWindow>(msg.data);
          if (w) update((f) => ({ view: addWindow(f.view, w), status: 'live', loaded: true }));
        },
        sample: (msg) => {
          const s = parse<GpuMetricSample>(msg.data);
          if (s) update((f) => ({ view: { ...addSamples(f.view, [s]), unavailable: null }, status: 'live' }));
        },
        unavailable: (msg) => {
          const u = parse<GpuMetricUnavailable>(msg.data);
          if (u) update((f) => ({ view: { ...f.view, unavailable: u.reason } }));
        },
        end: (msg) => {
          parse<GpuMetricEnd>(msg.data);
          stop();
          update(() => ({ status: 'ended' }));
        },
      },
      onStatus: (s) => {
        if (s === 'reconnecting') update((f) => (f.status === 'ended' ? {} : { status: 'reconnecting' }));
      },
    });
    return () => {
      stop();
      setState((prev) => (prev.jobId === jobId ? { ...prev, jobId: null } : prev));
    };
  }, [jobId]);

  if (jobId !== null && state.jobId !== jobId) return { view: EMPTY_VIEW, status: 'connecting', loaded: false };
  return { view: state.view, status: state.status, loaded: state.loaded };
}
