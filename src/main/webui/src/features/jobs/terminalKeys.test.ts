import { describe, expect, it } from 'vitest';
import { terminalKeyAction } from './terminalKeys';

const press = (
  key: string,
  mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }>,
  type = 'keydown',
) => ({
  type,
  key,
  code: /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('terminalKeyAction', () => {
  it.each([
    ['Ctrl+Shift+C copies', press('C', { ctrlKey: true, shiftKey: true }), 'copy'],
    ['Cmd+Shift+C copies', press('c', { metaKey: true, shiftKey: true }), 'copy'],
    ['Ctrl+Shift+V pastes', press('V', { ctrlKey: true, shiftKey: true }), 'paste'],
    ['Cmd+Shift+V pastes', press('v', { metaKey: true, shiftKey: true }), 'paste'],
    ['Ctrl+C is the shell\u2019s interrupt', press('c', { ctrlKey: true }), null],
    ['Ctrl+V goes to the shell', press('v', { ctrlKey: true }), null],
    ['Shift+C is a capital C', press('C', { shiftKey: true }), null],
    ['Ctrl+Alt+Shift+C is left alone', press('C', { ctrlKey: true, shiftKey: true, altKey: true }), null],
    ['Ctrl+Shift+X is left alone', press('X', { ctrlKey: true, shiftKey: true }), null],
    ['key-up is ignored', press('C', { ctrlKey: true, shiftKey: true }, 'keyup'), null],
  ])('%s', (_name, event, expected) => {
    expect(terminalKeyAction(event)).toBe(expected);
  });

  it('reads the physical key when the layout gives another character', () => {
    expect(terminalKeyAction({ ...press('C', { ctrlKey: true, shiftKey: true }), key: 'Ç' })).toBe('copy');
  });
});
