import { vi } from 'vitest';

/** A stand-in for the browser's WebSocket: tests open it, send frames from the "server" and close it. */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readonly url: string;
  readyState = FakeWebSocket.CONNECTING;
  binaryType: BinaryType = 'blob';
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent<unknown>) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  /** What the client sent: text frames as strings, binary frames decoded as UTF-8 text in `binary`. */
  readonly sent: (string | Uint8Array)[] = [];
  closedWith: number | null = null;

  constructor(url: string) {
    this.url = url;
    FakeWebSocket.instances.push(this);
  }

  send(frame: string | Uint8Array): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('not open');
    this.sent.push(frame);
  }

  close(code = 1005): void {
    this.closedWith = code;
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** The text control frames sent, parsed. */
  get controls(): unknown[] {
    return this.sent.filter((f): f is string => typeof f === 'string').map((f) => JSON.parse(f) as unknown);
  }

  /** The binary frames sent, decoded and joined. */
  get typed(): string {
    const decoder = new TextDecoder();
    return this.sent
      .filter((f): f is Uint8Array => typeof f !== 'string')
      .map((f) => decoder.decode(f))
      .join('');
  }

  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  /** A frame from the server: a string is a text frame, anything else output bytes (UTF-8 of `text`). */
  receiveText(text: string): void {
    this.onmessage?.(new MessageEvent('message', { data: text }));
  }

  receiveOutput(text: string): void {
    const bytes = new TextEncoder().encode(text);
    this.onmessage?.(new MessageEvent('message', { data: bytes.buffer }));
  }

  /** The server (or the network) closes the socket. */
  serverClose(code = 1000): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onerror?.(new Event('error'));
    this.onclose?.(new CloseEvent('close', { code }));
  }

  static latest(): FakeWebSocket {
    const last = FakeWebSocket.instances.at(-1);
    if (!last) throw new Error('no socket opened');
    return last;
  }
}

/** Replaces window.WebSocket with FakeWebSocket until vi.unstubAllGlobals(). */
export function installFakeWebSocket(): void {
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
}
