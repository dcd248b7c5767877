/** Server-Sent Events helper on top of the browser's EventSource. */

export type StreamStatus = 'connecting' | 'live' | 'reconnecting';

export interface StreamMessage {
  data: string;
  /** The event id (`id:` field); the browser resends the last one as Last-Event-ID on reconnect. */
  id: string;
}

export interface EventStreamOptions {
  url: string;
  /** Handlers per event name (the `event:` field). */
  handlers: Record<string, (msg: StreamMessage) => void>;
  onStatus?: (status: StreamStatus) => void;
  /**
   * Runs before a new EventSource is opened after the browser gave up on the old one
   * (for example after a 401 or a non-stream response). Events may have been missed then.
   */
  onReopen?: () => Promise<unknown> | void;
  /** Delay before reopening, by attempt number (1, 2, ...). */
  backoffMs?: (attempt: number) => number;
  createEventSource?: (url: string) => EventSource;
}

const CLOSED = 2;

export function defaultBackoff(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
}

/** Opens the stream and keeps it open until the returned function is called. */
export function openEventStream(opts: EventStreamOptions): () => void {
  const create = opts.createEventSource ?? ((url: string) => new EventSource(url));
  const backoff = opts.backoffMs ?? defaultBackoff;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  const setStatus = (s: StreamStatus) => {
    if (!stopped) opts.onStatus?.(s);
  };

  const scheduleReopen = () => {
    attempt += 1;
    timer = setTimeout(() => {
      void Promise.resolve()
        .then(() => opts.onReopen?.())
        .catch(() => undefined)
        .then(connect);
    }, backoff(attempt));
  };

  function connect() {
    if (stopped) return;
    const es = create(opts.url);
    source = es;
    for (const [name, handler] of Object.entries(opts.handlers)) {
      es.addEventListener(name, (ev) => {
        const msg = ev as MessageEvent<string>;
        handler({ data: msg.data, id: msg.lastEventId });
      });
    }
    es.onopen = () => {
      attempt = 0;
      setStatus('live');
    };
    es.onerror = () => {
      if (stopped || source !== es) return;
      setStatus('reconnecting');
      if (es.readyState === CLOSED) {
        es.close();
        source = null;
        scheduleReopen();
      }
    };
  }

  setStatus('connecting');
  connect();

  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    source?.close();
    source = null;
  };
}
