import { vi } from 'vitest';

type Listener = (ev: MessageEvent<string>) => void;

/** A stand-in for the browser's EventSource: tests open it, send events and make it fail. */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readyState = FakeEventSource.CONNECTING;
  onopen: ((ev: Event) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onmessage: Listener | null = null;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  addEventListener(name: string, listener: Listener): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.(new Event('open'));
  }

  /** Sends an event; `message` (the default name) also reaches onmessage. */
  emit(name: string, data: string, id = ''): void {
    const ev = new MessageEvent<string>(name, { data, lastEventId: id });
    if (name === 'message') this.onmessage?.(ev);
    for (const l of this.listeners.get(name) ?? []) l(ev);
  }

  /** The connection failed or ended; `closed` as when the browser gives up. */
  fail(closed = true): void {
    if (closed) this.readyState = FakeEventSource.CLOSED;
    this.onerror?.(new Event('error'));
  }

  static latest(urlPart: string): FakeEventSource | undefined {
    return [...FakeEventSource.instances].reverse().find((s) => s.url.includes(urlPart));
  }
}

/** Installs the fake as the global EventSource (undo with vi.unstubAllGlobals()). */
export function installFakeEventSource(): void {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
}
