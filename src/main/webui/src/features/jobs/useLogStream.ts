import { useEffect, useState } from 'react';
import { appendLines, nextRetryCount } from './logBuffer';

/** connecting: opening or reopening; live: lines arrive; ended: the stream ended and is not reopened. */
export type LogStreamStatus = 'connecting' | 'live' | 'ended';

/** What a follower shows: the last lines and the state of the stream. */
interface Shown {
  lines: string[];
  status: LogStreamStatus;
}

/** New lines are shown in batches this often, so a chatty log does not re-render per line. */
const FLUSH_MS = 100;

/**
 * Follows a log stream (one line per `message` event) while `url` is set: keeps the last MAX_LOG_LINES
 * lines. The server re-sends the whole tail on every connection, so the first lines of a reconnection
 * replace what is shown. A dropped stream is reopened a few times only (see nextRetryCount): it also ends
 * when the container does.
 */
export function useLogStream(url: string | null): { lines: string[]; status: LogStreamStatus } {
  // What was shown of the stream of `stream.url`; a stream of another url starts empty (see the return).
  const [stream, setStream] = useState<Shown & { url: string | null }>({ url: null, lines: [], status: 'connecting' });

  useEffect(() => {
    if (url === null || typeof EventSource === 'undefined') return undefined;
    const update = (change: (shown: Shown) => Partial<Shown>) =>
      setStream((prev) => {
        const shown = prev.url === url ? prev : { url, lines: [], status: 'connecting' as const };
        return { ...shown, ...change(shown) };
      });
    const setStatus = (status: LogStreamStatus) => update(() => ({ status }));
    let source: EventSource | null = null;
    let stopped = false;
    let retries = 0;
    let openedAt: number | null = null;
    let pending: string[] = [];
    let replace = false;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const flush = () => {
      flushTimer = undefined;
      const added = pending;
      const fresh = replace;
      pending = [];
      replace = false;
      update((shown) => ({ lines: appendLines(fresh ? [] : shown.lines, added) }));
    };

    const connect = () => {
      if (stopped) return;
      const es = new EventSource(url);
      source = es;
      es.onopen = () => {
        openedAt = Date.now();
        // The tail comes again: it replaces the lines shown (and any not shown yet).
        replace = true;
        pending = [];
        setStatus('live');
      };
      es.onmessage = (ev: MessageEvent<string>) => {
        pending.push(...ev.data.split('\n'));
        if (flushTimer === undefined) flushTimer = setTimeout(flush, FLUSH_MS);
      };
      es.onerror = () => {
        if (stopped || source !== es) return;
        // Reconnect on our terms (the browser would retry forever).
        es.close();
        source = null;
        const next = nextRetryCount(retries, openedAt === null ? null : Date.now() - openedAt);
        openedAt = null;
        if (next === null) {
          setStatus('ended');
          return;
        }
        retries = next;
        setStatus('connecting');
        retryTimer = setTimeout(connect, 1000 * next);
      };
    };

    connect();
    return () => {
      stopped = true;
      if (flushTimer !== undefined) clearTimeout(flushTimer);
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      source?.close();
      source = null;
      // Coming back to this url later starts from an empty view, as another url would.
      setStream((prev) => (prev.url === url ? { ...prev, url: null } : prev));
    };
  }, [url]);

  if (url !== null && stream.url !== url) return { lines: [], status: typeof EventSource === 'undefined' ? 'ended' : 'connecting' };
  return { lines: stream.lines, status: stream.status };
}
