/** What a key press in the terminal means to the console rather than to the shell. */
export type TerminalKeyAction = 'copy' | 'paste' | null;

interface KeyPress {
  type: string;
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * Ctrl+Shift+C / Cmd+Shift+C copies the selection, Ctrl+Shift+V / Cmd+Shift+V pastes (plain Ctrl+C stays an
 * interrupt for the shell). Only key-down events count; everything else goes to the shell.
 */
export function terminalKeyAction(e: KeyPress): TerminalKeyAction {
  if (e.type !== 'keydown' || !(e.ctrlKey || e.metaKey) || !e.shiftKey || e.altKey) return null;
  // The physical key where the browser says which (a layout may put another character on it).
  const letter = e.code?.startsWith('Key') ? e.code.slice(3).toLowerCase() : e.key.toLowerCase();
  if (letter === 'c') return 'copy';
  if (letter === 'v') return 'paste';
  return null;
}
