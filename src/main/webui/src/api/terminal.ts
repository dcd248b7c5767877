/**
 * The console terminal's WebSocket protocol (TerminalSocket on the server), as pure functions: keystrokes go
 * out as binary frames of UTF-8 bytes, control goes out as text JSON ({"type":"resize","cols":N,"rows":M});
 * binary frames in are the terminal's output, text frames in are {"type":"exit","code":7} or
 * {"type":"error","message":"..."} just before the server closes. A refused upgrade (401, 403, 404, 409) reaches
 * the browser only as a socket that closes without having opened.
 */

/** A control message from the server. */
export type TerminalControl = { type: 'exit'; code: number | null } | { type: 'error'; message: string };

/**
 * Where a terminal session stands. `error.reason`: `refused` the socket never opened (the job stopped, the pod
 * is gone, the session expired), `lost` it closed without saying why, `server` the server sent an error message.
 */
export type TerminalStatus =
  | { kind: 'connecting' }
  | { kind: 'connected' }
  | { kind: 'ended'; code: number | null }
  | { kind: 'error'; reason: 'refused' | 'lost' | 'server'; message: string | null };

/** The parts of `window.location` a socket URL is built from. */
export interface PageLocation {
  protocol: string;
  host: string;
}

/** The WebSocket URL of a same-origin path: wss: on an https: page, ws: otherwise. */
export function terminalSocketUrl(path: string, location: PageLocation): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path.startsWith('/') ? path : `/${path}`}`;
}

const encoder = new TextEncoder();

/** Typed text (xterm's onData) as the UTF-8 bytes of a binary frame. */
export function encodeInput(data: string): Uint8Array {
  return encoder.encode(data);
}

/** xterm's onBinary data (one character per byte, e.g. mouse reports) as those bytes. */
export function encodeBinaryInput(data: string): Uint8Array {
  const bytes = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
  return bytes;
}

/** The resize control message; sizes are whole and at least 1. */
export function resizeMessage(cols: number, rows: number): string {
  const whole = (n: number) => (Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1);
  return JSON.stringify({ type: 'resize', cols: whole(cols), rows: whole(rows) });
}

/** A text frame from the server as a control message; null for anything else (ignored). */
export function parseControl(text: string): TerminalControl | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const msg = value as { type?: unknown; code?: unknown; message?: unknown };
  if (msg.type === 'exit') {
    return { type: 'exit', code: typeof msg.code === 'number' && Number.isInteger(msg.code) ? msg.code : null };
  }
  if (msg.type === 'error') {
    return { type: 'error', message: typeof msg.message === 'string' ? msg.message : '' };
  }
  return null;
}

/** What was seen on a socket before it closed. */
export interface SocketHistory {
  opened: boolean;
  exit: { code: number | null } | null;
  error: string | null;
  /** The close event's code (1000 normal, 1006 abnormal, ...). */
  closeCode: number;
}

/** The status a closed socket leaves: the server's error, the shell's exit, or why it closed without either. */
export function closedStatus(seen: SocketHistory): TerminalStatus {
  if (seen.error !== null) return { kind: 'error', reason: 'server', message: seen.error };
  if (seen.exit !== null) return { kind: 'ended', code: seen.exit.code };
  if (!seen.opened) return { kind: 'error', reason: 'refused', message: null };
  if (seen.closeCode === 1000 || seen.closeCode === 1001) return { kind: 'ended', code: null };
  return { kind: 'error', reason: 'lost', message: null };
}

/** Whether the session is over (a new one needs a reconnect). */
export function isOver(status: TerminalStatus): boolean {
  return status.kind === 'ended' || status.kind === 'error';
}
