import { useEffect, useRef } from 'react';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { terminalKeyAction } from './terminalKeys';

/** What the page does with the terminal on screen. */
export interface TerminalScreen {
  write(data: Uint8Array | string): void;
  /** Clears the screen and the scrollback for a new session. */
  reset(): void;
  size(): { cols: number; rows: number };
  /** The selected text ('' when none). */
  selection(): string;
  /** Types text as a paste (bracketed when the shell asked for it). */
  paste(text: string): void;
  focus(): void;
}

export interface XtermViewProps {
  /** Called with the screen once it is on the page, and with null when it leaves. */
  onReady: (screen: TerminalScreen | null) => void;
  /** Typed or pasted text. */
  onInput: (data: string) => void;
  /** Raw bytes, one per character (mouse reports in some modes). */
  onBinary: (data: string) => void;
  /** The terminal's size changed (after fitting it to its box). */
  onResize: (cols: number, rows: number) => void;
  /** Ctrl/Cmd+Shift+C was pressed. */
  onCopyKey: () => void;
  /** Ctrl/Cmd+Shift+V was pressed and the clipboard API can read. */
  onPasteKey: () => void;
  label: string;
}

const THEME = {
  background: '#0f172a',
  foreground: '#e2e8f0',
  cursor: '#e2e8f0',
  selectionBackground: '#475569',
};

/**
 * xterm.js in the page, fitted to its box (refitted whenever the box changes size). Only this component knows
 * xterm; the page talks to it through TerminalScreen and the callbacks.
 */
export default function XtermView(props: XtermViewProps) {
  const box = useRef<HTMLDivElement>(null);
  // The latest callbacks, read by xterm's listeners (which are attached once).
  const handlers = useRef(props);
  useEffect(() => {
    handlers.current = props;
  });

  useEffect(() => {
    const element = box.current;
    if (element === null) return undefined;
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
      fontSize: 13,
      scrollback: 5000,
      theme: THEME,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(element);
    const refit = () => {
      try {
        fit.fit();
      } catch {
        // Not laid out yet (hidden): the next resize fits it.
      }
    };
    refit();
    term.attachCustomKeyEventHandler((event) => {
      const action = terminalKeyAction(event);
      if (action === 'copy') {
        event.preventDefault();
        handlers.current.onCopyKey();
        return false;
      }
      if (action === 'paste') {
        // Without the clipboard API the browser's own paste (which xterm handles) goes ahead.
        if (typeof navigator !== 'undefined' && typeof navigator.clipboard?.readText === 'function') {
          event.preventDefault();
          handlers.current.onPasteKey();
        }
        return false;
      }
      return true;
    });
    const subscriptions = [
      term.onData((data) => handlers.current.onInput(data)),
      term.onBinary((data) => handlers.current.onBinary(data)),
      term.onResize(({ cols, rows }) => handlers.current.onResize(cols, rows)),
    ];
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(refit);
    observer?.observe(element);
    const screen: TerminalScreen = {
      write: (data) => term.write(data),
      reset: () => term.reset(),
      size: () => ({ cols: term.cols, rows: term.rows }),
      selection: () => term.getSelection(),
      paste: (text) => term.paste(text),
      focus: () => term.focus(),
    };
    handlers.current.onReady(screen);
    return () => {
      handlers.current.onReady(null);
      observer?.disconnect();
      for (const s of subscriptions) s.dispose();
      term.dispose();
    };
  }, []);

  return (
    <div className="rounded-md bg-slate-900 p-2">
      <div ref={box} data-testid="job-terminal-screen" aria-label={props.label} className="h-96 w-full" />
    </div>
  );
}
