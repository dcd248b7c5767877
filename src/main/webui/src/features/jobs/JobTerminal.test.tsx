import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ConnectPod } from '../../api/types';
import { FakeWebSocket, installFakeWebSocket } from '../../test/fakeWebSocket';
import { FakeFitAddon, FakeTerminal } from '../../test/fakeXterm';
import { JobTerminal } from './JobTerminal';

vi.mock('@xterm/xterm', async () => ({ Terminal: (await import('../../test/fakeXterm')).FakeTerminal }));
vi.mock('@xterm/addon-fit', async () => ({ FitAddon: (await import('../../test/fakeXterm')).FakeFitAddon }));

const pod = (name: string, first = true): ConnectPod => ({
  pod: name,
  terminal: `/api/v1/jobs/j1/terminal${first ? '' : `?pod=${name}`}`,
  login: `alice+j1${first ? '' : `+${name}`}`,
  command: `ssh -p 2222 alice+j1${first ? '' : `+${name}`}@localhost`,
  sshConfig: `Host crater-j1\n  HostName localhost\n  Port 2222\n  User alice+j1\n  ServerAliveInterval 30\n`,
});

const clipboard = { writeText: vi.fn(), readText: vi.fn() };
let observers: (() => void)[] = [];

class FakeResizeObserver {
  constructor(private readonly callback: () => void) {
    observers.push(callback);
  }
  observe(): void {}
  disconnect(): void {
    observers = observers.filter((o) => o !== this.callback);
  }
}

beforeEach(() => {
  installFakeWebSocket();
  FakeTerminal.instances = [];
  FakeFitAddon.next = null;
  observers = [];
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  clipboard.writeText.mockReset().mockResolvedValue(undefined);
  clipboard.readText.mockReset();
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const status = () => screen.getByTestId('job-terminal-status');

/** Opens the terminal and waits for its socket. */
async function openTerminal(): Promise<{ socket: FakeWebSocket; term: FakeTerminal }> {
  fireEvent.click(screen.getByTestId('job-terminal-open'));
  await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
  return { socket: FakeWebSocket.latest(), term: FakeTerminal.latest() };
}

describe('JobTerminal', () => {
  it('opens only when asked, then connects to the pod over the page\u2019s origin and sends the size', async () => {
    render(<JobTerminal pods={[pod('main-0')]} />);
    expect(status().textContent).toBe('Not connected');
    expect(screen.queryByTestId('job-terminal-pod')).toBeNull();
    expect(FakeWebSocket.instances).toHaveLength(0);

    const { socket, term } = await openTerminal();
    expect(socket.url).toBe(`ws://${window.location.host}/api/v1/jobs/j1/terminal`);
    expect(status().textContent).toBe('Connecting to main-0…');
    expect(screen.getByTestId('job-terminal').dataset.status).toBe('connecting');

    act(() => socket.open());
    expect(status().textContent).toBe('Connected to main-0');
    expect(socket.controls).toEqual([{ type: 'resize', cols: 100, rows: 30 }]);
    expect(term.focused).toBeGreaterThan(0);
  });

  it('sends keystrokes as binary frames and writes the output', async () => {
    render(<JobTerminal pods={[pod('main-0')]} />);
    const { socket, term } = await openTerminal();
    act(() => socket.open());

    act(() => term.type('echo hello-terminal\r'));
    expect(socket.typed).toBe('echo hello-terminal\r');

    act(() => socket.receiveOutput('echo hello-terminal\r\nhello-terminal\r\ncrater@main-0:/workspace$ '));
    expect(term.output).toBe('echo hello-terminal\r\nhello-terminal\r\ncrater@main-0:/workspace$ ');
  });

  it('refits when its box changes size and tells the server the new size', async () => {
    render(<JobTerminal pods={[pod('main-0')]} />);
    const { socket } = await openTerminal();
    act(() => socket.open());
    FakeFitAddon.next = { cols: 132, rows: 43 };
    act(() => {
      for (const o of observers) o();
    });
    expect(socket.controls).toEqual([
      { type: 'resize', cols: 100, rows: 30 },
      { type: 'resize', cols: 132, rows: 43 },
    ]);
  });

  it('shows the exit code when the shell ends, and reconnects in a fresh session', async () => {
    render(<JobTerminal pods={[pod('main-0')]} />);
    const { socket, term } = await openTerminal();
    act(() => socket.open());
    expect(screen.queryByTestId('job-terminal-reconnect')).toBeNull();

    act(() => {
      socket.receiveText('{"type":"exit","code":7}');
      socket.serverClose(1000);
    });
    expect(status().textContent).toBe('The shell in main-0 ended with exit code 7');
    expect(status().dataset.status).toBe('ended');

    const resetsBefore = term.resets;
    fireEvent.click(screen.getByTestId('job-terminal-reconnect'));
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(term.resets).toBe(resetsBefore + 1);
    expect(status().textContent).toBe('Connecting to main-0…');
    expect(screen.queryByTestId('job-terminal-reconnect')).toBeNull();
  });

  it.each([
    [
      'the server\u2019s error',
      (s: FakeWebSocket) => {
        s.open();
        s.receiveText('{"type":"error","message":"the pod main-0 is gone"}');
        s.serverClose(1011);
      },
      'The terminal failed: the pod main-0 is gone',
    ],
    [
      'a refused connection',
      (s: FakeWebSocket) => s.serverClose(1006),
      'Could not connect to main-0: the job may have stopped, or your session expired',
    ],
    [
      'a lost connection',
      (s: FakeWebSocket) => {
        s.open();
        s.serverClose(1006);
      },
      'The connection to main-0 was lost',
    ],
  ])('says so on %s, and offers to reconnect', async (_name, happen, text) => {
    render(<JobTerminal pods={[pod('main-0')]} />);
    const { socket } = await openTerminal();
    act(() => happen(socket));
    expect(status().textContent).toBe(text);
    expect(status().dataset.status).toBe('error');
    expect(screen.getByTestId('job-terminal-reconnect')).toBeTruthy();
  });

  it('switches pods: closes the old socket and opens the pod\u2019s own', async () => {
    render(<JobTerminal pods={[pod('main-0'), pod('worker-1', false)]} />);
    const { socket } = await openTerminal();
    act(() => socket.open());

    fireEvent.change(screen.getByTestId('job-terminal-pod'), { target: { value: 'worker-1' } });
    expect(socket.closedWith).toBe(1000);
    const second = FakeWebSocket.latest();
    expect(second).not.toBe(socket);
    expect(second.url).toBe(`ws://${window.location.host}/api/v1/jobs/j1/terminal?pod=worker-1`);
    expect(status().textContent).toBe('Connecting to worker-1…');
  });

  it('closes the socket and the terminal when it leaves the page', async () => {
    const { unmount } = render(<JobTerminal pods={[pod('main-0')]} />);
    const { socket, term } = await openTerminal();
    act(() => socket.open());
    unmount();
    expect(socket.closedWith).toBe(1000);
    expect(term.disposed).toBe(true);
  });

  it('copies the selection and pastes from the clipboard, with the buttons and the keys', async () => {
    render(<JobTerminal pods={[pod('main-0')]} />);
    const { socket, term } = await openTerminal();
    act(() => socket.open());

    fireEvent.click(screen.getByTestId('job-terminal-copy'));
    expect(screen.getByTestId('job-terminal-note').textContent).toBe('Select text in the terminal first');
    expect(clipboard.writeText).not.toHaveBeenCalled();

    term.selectionText = 'hello-terminal';
    fireEvent.click(screen.getByTestId('job-terminal-copy'));
    expect(clipboard.writeText).toHaveBeenCalledWith('hello-terminal');
    expect(await screen.findByText('Copied the selection')).toBeTruthy();

    clipboard.readText.mockResolvedValue('ls -la\r');
    fireEvent.click(screen.getByTestId('job-terminal-paste'));
    await waitFor(() => expect(term.pasted).toEqual(['ls -la\r']));
    expect(socket.typed).toBe('ls -la\r');

    // Ctrl+Shift+C and Ctrl+Shift+V do the same and do not reach the shell; plain Ctrl+C does.
    const key = (k: string, mods: KeyboardEventInit) => new KeyboardEvent('keydown', { key: k, code: `Key${k.toUpperCase()}`, ...mods });
    term.selectionText = 'crater@main-0';
    expect(term.keyHandler?.(key('C', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(clipboard.writeText).toHaveBeenLastCalledWith('crater@main-0');
    clipboard.readText.mockResolvedValue('pwd');
    let handled: boolean | undefined;
    act(() => {
      handled = term.keyHandler?.(key('V', { metaKey: true, shiftKey: true }));
    });
    expect(handled).toBe(false);
    await waitFor(() => expect(term.pasted).toEqual(['ls -la\r', 'pwd']));
    expect(term.keyHandler?.(key('c', { ctrlKey: true }))).toBe(true);
  });

  it('says when the clipboard cannot be read', async () => {
    render(<JobTerminal pods={[pod('main-0')]} />);
    const { socket } = await openTerminal();
    act(() => socket.open());
    clipboard.readText.mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    fireEvent.click(screen.getByTestId('job-terminal-paste'));
    expect(await screen.findByText("Could not read the clipboard: use your browser's paste")).toBeTruthy();
  });
});
