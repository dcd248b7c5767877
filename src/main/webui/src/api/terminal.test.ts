import { describe, expect, it } from 'vitest';
import {
  closedStatus,
  encodeBinaryInput,
  encodeInput,
  isOver,
  parseControl,
  resizeMessage,
  terminalSocketUrl,
  type SocketHistory,
} from './terminal';

describe('terminalSocketUrl', () => {
  it.each([
    ['http:', 'crater.example:8080', '/api/v1/jobs/j1/terminal', 'ws://crater.example:8080/api/v1/jobs/j1/terminal'],
    ['https:', 'crater.example', '/api/v1/jobs/j1/terminal?pod=worker-1', 'wss://crater.example/api/v1/jobs/j1/terminal?pod=worker-1'],
    ['http:', '127.0.0.1:8123', 'api/v1/jobs/j1/terminal', 'ws://127.0.0.1:8123/api/v1/jobs/j1/terminal'],
  ])('on a %s page at %s, %s → %s', (protocol, host, path, expected) => {
    expect(terminalSocketUrl(path, { protocol, host })).toBe(expected);
  });
});

describe('input frames', () => {
  it('encodes typed text as UTF-8 bytes', () => {
    expect([...encodeInput('ls\r')]).toEqual([0x6c, 0x73, 0x0d]);
    expect([...encodeInput('é→')]).toEqual([0xc3, 0xa9, 0xe2, 0x86, 0x92]);
    expect(encodeInput('')).toHaveLength(0);
  });

  it('encodes binary data one byte per character', () => {
    expect([...encodeBinaryInput('\x1b[M\xff\x80')]).toEqual([0x1b, 0x5b, 0x4d, 0xff, 0x80]);
  });
});

describe('resizeMessage', () => {
  it('is the JSON control message', () => {
    expect(JSON.parse(resizeMessage(120, 40))).toEqual({ type: 'resize', cols: 120, rows: 40 });
  });

  it('sends whole sizes of at least 1', () => {
    expect(JSON.parse(resizeMessage(80.7, 0))).toEqual({ type: 'resize', cols: 80, rows: 1 });
    expect(JSON.parse(resizeMessage(Number.NaN, -3))).toEqual({ type: 'resize', cols: 1, rows: 1 });
  });
});

describe('parseControl', () => {
  it.each([
    ['{"type":"exit","code":7}', { type: 'exit', code: 7 }],
    ['{"type":"exit","code":0}', { type: 'exit', code: 0 }],
    ['{"type":"exit","code":null}', { type: 'exit', code: null }],
    ['{"type":"exit"}', { type: 'exit', code: null }],
    ['{"type":"exit","code":"7"}', { type: 'exit', code: null }],
    ['{"type":"error","message":"pod main-0 is gone"}', { type: 'error', message: 'pod main-0 is gone' }],
    ['{"type":"error"}', { type: 'error', message: '' }],
  ])('%s', (text, expected) => {
    expect(parseControl(text)).toEqual(expected);
  });

  it.each(['', 'not json', '42', 'null', '[]', '{"type":"resize","cols":80,"rows":24}', '{"code":1}'])('ignores %j', (text) => {
    expect(parseControl(text)).toBeNull();
  });
});

describe('closedStatus', () => {
  const seen = (over: Partial<SocketHistory>): SocketHistory => ({ opened: true, exit: null, error: null, closeCode: 1000, ...over });

  it.each<[string, Partial<SocketHistory>, ReturnType<typeof closedStatus>]>([
    ['the shell exited with a code', { exit: { code: 7 } }, { kind: 'ended', code: 7 }],
    ['the shell exited without a code', { exit: { code: null }, closeCode: 1006 }, { kind: 'ended', code: null }],
    ['the server sent an error', { error: 'exec failed', exit: { code: 1 } }, { kind: 'error', reason: 'server', message: 'exec failed' }],
    ['the upgrade was refused', { opened: false, closeCode: 1006 }, { kind: 'error', reason: 'refused', message: null }],
    ['a normal close without exit', { closeCode: 1000 }, { kind: 'ended', code: null }],
    ['the server went away', { closeCode: 1001 }, { kind: 'ended', code: null }],
    ['the connection dropped', { closeCode: 1006 }, { kind: 'error', reason: 'lost', message: null }],
  ])('%s', (_name, over, expected) => {
    expect(closedStatus(seen(over))).toEqual(expected);
  });

  it('says when a session is over', () => {
    expect(isOver({ kind: 'connecting' })).toBe(false);
    expect(isOver({ kind: 'connected' })).toBe(false);
    expect(isOver({ kind: 'ended', code: 0 })).toBe(true);
    expect(isOver({ kind: 'error', reason: 'lost', message: null })).toBe(true);
  });
});
