import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TerminalStatus } from '../../api/terminal';
import { FakeWebSocket } from '../../test/fakeWebSocket';
import { openTerminalSession } from './terminalSession';

function open(size = { cols: 80, rows: 24 }) {
  const statuses: TerminalStatus[] = [];
  const output: string[] = [];
  const decoder = new TextDecoder();
  const session = openTerminalSession({
    url: 'ws://crater.test/api/v1/jobs/j1/terminal',
    size,
    onOutput: (bytes) => output.push(decoder.decode(bytes)),
    onStatus: (s) => statuses.push(s),
    createSocket: (url) => new FakeWebSocket(url) as unknown as WebSocket,
  });
  return { session, socket: FakeWebSocket.latest(), statuses, output };
}

beforeEach(() => {
  FakeWebSocket.instances = [];
});

describe('openTerminalSession', () => {
  it('connects, sends the size first, then keystrokes as binary frames, and shows the output', () => {
    const { session, socket, statuses, output } = open({ cols: 132, rows: 43 });
    expect(socket.url).toBe('ws://crater.test/api/v1/jobs/j1/terminal');
    expect(socket.binaryType).toBe('arraybuffer');
    expect(statuses).toEqual([{ kind: 'connecting' }]);

    // Nothing is sent before the socket opens.
    session.input('lost');
    socket.open();
    expect(statuses.at(-1)).toEqual({ kind: 'connected' });
    expect(socket.sent[0]).toBe('{"type":"resize","cols":132,"rows":43}');

    session.input('echo hé\r');
    session.binary('\x1b[M\xff');
    expect(typeof socket.sent[1]).not.toBe('string');
    expect([...(socket.sent[1] as Uint8Array)]).toEqual([...new TextEncoder().encode('echo hé\r')]);
    expect([...(socket.sent[2] as Uint8Array)]).toEqual([0x1b, 0x5b, 0x4d, 0xff]);

    socket.receiveOutput('hé\r\ncrater@main-0:/workspace$ ');
    expect(output).toEqual(['hé\r\ncrater@main-0:/workspace$ ']);
  });

  it('sends a resize when the size changes, and the latest size when it opens', () => {
    const { session, socket } = open();
    session.resize(100, 30);
    socket.open();
    session.resize(100, 30);
    session.resize(120, 30);
    expect(socket.controls).toEqual([
      { type: 'resize', cols: 100, rows: 30 },
      { type: 'resize', cols: 120, rows: 30 },
    ]);
  });

  it('ends with the exit code the server sent before closing', () => {
    const { socket, statuses, output } = open();
    socket.open();
    socket.receiveText('{"type":"exit","code":7}');
    expect(statuses.at(-1)).toEqual({ kind: 'connected' });
    socket.serverClose(1000);
    expect(statuses.at(-1)).toEqual({ kind: 'ended', code: 7 });
    // Control frames are not output.
    expect(output).toEqual([]);
  });

  it('shows the server\u2019s error message', () => {
    const { socket, statuses } = open();
    socket.open();
    socket.receiveText('{"type":"error","message":"the pod main-0 is gone"}');
    socket.serverClose(1011);
    expect(statuses.at(-1)).toEqual({ kind: 'error', reason: 'server', message: 'the pod main-0 is gone' });
  });

  it('says the connection was refused when the socket never opened', () => {
    const { socket, statuses } = open();
    socket.serverClose(1006);
    expect(statuses).toEqual([{ kind: 'connecting' }, { kind: 'error', reason: 'refused', message: null }]);
  });

  it('says the connection was lost when it dropped', () => {
    const { socket, statuses } = open();
    socket.open();
    socket.serverClose(1006);
    expect(statuses.at(-1)).toEqual({ kind: 'error', reason: 'lost', message: null });
  });

  it('closes the socket and reports nothing more once closed', () => {
    const { session, socket, statuses, output } = open();
    socket.open();
    const before = statuses.length;
    session.close();
    expect(socket.closedWith).toBe(1000);
    const send = vi.spyOn(socket, 'send');
    session.input('x');
    socket.receiveOutput('late');
    socket.serverClose(1000);
    expect(send).not.toHaveBeenCalled();
    expect(output).toEqual([]);
    expect(statuses).toHaveLength(before);
  });
});
