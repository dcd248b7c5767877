import { closedStatus, encodeBinaryInput, encodeInput, parseControl, resizeMessage, type TerminalStatus } from '../../api/terminal';

/** By its tag, so that an ArrayBuffer of another realm (a worker, a test environment) counts too. */
function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return value instanceof ArrayBuffer || Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

/** WebSocket.OPEN (kept here so that a stand-in socket needs no constants). */
const OPEN = 1;

export interface TerminalSessionOptions {
  /** The ws: or wss: URL (see terminalSocketUrl). */
  url: string;
  /** The terminal's size now, sent as soon as the socket opens. */
  size: { cols: number; rows: number };
  onOutput: (data: Uint8Array) => void;
  onStatus: (status: TerminalStatus) => void;
  createSocket?: (url: string) => WebSocket;
}

export interface TerminalSession {
  /** Typed or pasted text (xterm's onData). */
  input(data: string): void;
  /** Raw bytes, one per character (xterm's onBinary). */
  binary(data: string): void;
  /** The terminal's new size; sent now if the socket is open, else when it opens. */
  resize(cols: number, rows: number): void;
  /** Closes the socket; no status is reported after this. */
  close(): void;
}

/**
 * Opens one terminal session: reports connecting, connected, then how it ended (closedStatus) once the socket
 * closes; hands the output bytes on as they come.
 */
export function openTerminalSession(opts: TerminalSessionOptions): TerminalSession {
  const socket = (opts.createSocket ?? ((url: string) => new WebSocket(url)))(opts.url);
  socket.binaryType = 'arraybuffer';
  let size = opts.size;
  let opened = false;
  let exit: { code: number | null } | null = null;
  let error: string | null = null;
  let done = false;

  const send = (frame: string | Uint8Array) => {
    if (!done && socket.readyState === OPEN) socket.send(frame);
  };

  opts.onStatus({ kind: 'connecting' });
  socket.onopen = () => {
    if (done) return;
    opened = true;
    send(resizeMessage(size.cols, size.rows));
    opts.onStatus({ kind: 'connected' });
  };
  socket.onmessage = (event: MessageEvent<unknown>) => {
    if (done) return;
    const { data } = event;
    if (typeof data === 'string') {
      const control = parseControl(data);
      if (control?.type === 'exit') exit = { code: control.code };
      else if (control?.type === 'error') error = control.message;
    } else if (isArrayBuffer(data)) {
      opts.onOutput(new Uint8Array(data));
    } else if (ArrayBuffer.isView(data)) {
      opts.onOutput(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    }
  };
  // An error is always followed by close, which says what it meant.
  socket.onerror = () => undefined;
  socket.onclose = (event: CloseEvent) => {
    if (done) return;
    done = true;
    opts.onStatus(closedStatus({ opened, exit, error, closeCode: event.code }));
  };

  return {
    input: (data) => send(encodeInput(data)),
    binary: (data) => send(encodeBinaryInput(data)),
    resize: (cols, rows) => {
      if (cols === size.cols && rows === size.rows) return;
      size = { cols, rows };
      send(resizeMessage(cols, rows));
    },
    close: () => {
      if (done) return;
      done = true;
      socket.close(1000);
    },
  };
}
