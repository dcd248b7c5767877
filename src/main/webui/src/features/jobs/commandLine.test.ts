import { describe, expect, it } from 'vitest';
import { formatCommandLine, parseCommandLine } from './commandLine';

const args = (line: string) => {
  const r = parseCommandLine(line);
  if (!r.ok) throw new Error(r.error);
  return r.args;
};

describe('parseCommandLine', () => {
  it('splits at runs of whitespace', () => {
    expect(args('python -c print(1)')).toEqual(['python', '-c', 'print(1)']);
    expect(args('  torchrun   --nproc-per-node 8\ttrain.py  ')).toEqual(['torchrun', '--nproc-per-node', '8', 'train.py']);
    expect(args('')).toEqual([]);
    expect(args('   ')).toEqual([]);
  });

  it('keeps quoted spaces and joins adjacent quoted parts', () => {
    expect(args(`python -c "print('hi there')"`)).toEqual(['python', '-c', "print('hi there')"]);
    expect(args(`sh -c 'echo "$HOME" && ls'`)).toEqual(['sh', '-c', 'echo "$HOME" && ls']);
    expect(args(`--name="my run" x`)).toEqual(['--name=my run', 'x']);
    expect(args(`a"b"'c'd`)).toEqual(['abcd']);
  });

  it('reads empty quotes as an empty argument', () => {
    expect(args(`cmd "" ''`)).toEqual(['cmd', '', '']);
  });

  it('handles backslash escapes', () => {
    expect(args('echo a\\ b')).toEqual(['echo', 'a b']);
    expect(args('echo "say \\"hi\\" \\\\ \\n"')).toEqual(['echo', 'say "hi" \\ \\n']);
    expect(args("echo 'no \\escape'")).toEqual(['echo', 'no \\escape']);
  });

  it('does not interpret shell operators', () => {
    expect(args('a|b > c')).toEqual(['a|b', '>', 'c']);
  });

  it('reports unterminated quotes and a trailing backslash', () => {
    expect(parseCommandLine('python -c "print(1)')).toEqual({ ok: false, error: 'unterminatedQuote' });
    expect(parseCommandLine("echo 'x")).toEqual({ ok: false, error: 'unterminatedQuote' });
    expect(parseCommandLine('echo x\\')).toEqual({ ok: false, error: 'danglingEscape' });
  });
});

describe('formatCommandLine', () => {
  it('leaves plain words alone and quotes the others', () => {
    expect(formatCommandLine(['python', '-c', 'print(1)'])).toBe('python -c print(1)');
    expect(formatCommandLine(['python', '-c', "print('hi there')"])).toBe(`python -c "print('hi there')"`);
    expect(formatCommandLine(['sh', '-c', 'echo "$HOME" && ls'])).toBe(`sh -c 'echo "$HOME" && ls'`);
    expect(formatCommandLine(['cmd', ''])).toBe(`cmd ''`);
    expect(formatCommandLine([])).toBe('');
  });

  it.each([
    [['python', 'train.py', '--epochs', '10']],
    [['sh', '-c', 'echo "$HOME" && ls']],
    [['python', '-c', "print('hi there')"]],
    [['say', `it's "quoted" \\ here`]],
    [['a\\b', 'tab\there', 'new\nline']],
    [['', ' ', "'", '"', '\\']],
    [['--name=my run', 'x']],
  ])('reads back as the same arguments: %j', (list) => {
    expect(parseCommandLine(formatCommandLine(list))).toEqual({ ok: true, args: list });
  });
});
