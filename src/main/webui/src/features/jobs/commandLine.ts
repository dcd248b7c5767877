/** Splitting of a one-line command into arguments, the way a POSIX shell does for plain words and quotes. */

export type CommandLineResult = { ok: true; args: string[] } | { ok: false; error: 'unterminatedQuote' | 'danglingEscape' };

/**
 * Splits on unquoted whitespace. 'single quotes' keep everything literally; "double quotes" keep spaces and
 * allow \" and \\ inside; outside quotes a backslash makes the next character literal. Quotes join adjacent
 * text into one argument ("a"'b'c → abc) and an empty pair ("") is an empty argument. No variables, globs or
 * operators: `a|b` is one argument.
 *
 * ('python -c "print(1)"') → ['python', '-c', 'print(1)']
 */
export function parseCommandLine(line: string): CommandLineResult {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (/\s/.test(c)) {
      if (inWord) {
        args.push(current);
        current = '';
        inWord = false;
      }
      i += 1;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ok: false, error: 'unterminatedQuote' };
      current += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let closed = false;
      while (j < line.length) {
        const d = line[j] as string;
        if (d === '"') {
          closed = true;
          break;
        }
        if (d === '\\' && j + 1 < line.length && (line[j + 1] === '"' || line[j + 1] === '\\')) {
          current += line[j + 1];
          j += 2;
        } else {
          current += d;
          j += 1;
        }
      }
      if (!closed) return { ok: false, error: 'unterminatedQuote' };
      inWord = true;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return { ok: false, error: 'danglingEscape' };
      current += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      current += c;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) args.push(current);
  return { ok: true, args };
}

/** Characters that make an argument need quotes for parseCommandLine to read it back as one word. */
const NEEDS_QUOTES = /[\s'"\\]/;

/**
 * Joins arguments into one line that parseCommandLine splits back into the same arguments: plain words as
 * they are, others in single quotes, or in double quotes (escaping " and \) when they contain a single quote.
 *
 * (['python', '-c', "print('hi there')"]) → `python -c "print('hi there')"`
 */
export function formatCommandLine(args: readonly string[]): string {
  return args
    .map((a) => {
      if (a !== '' && !NEEDS_QUOTES.test(a)) return a;
      if (!a.includes("'")) return `'${a}'`;
      return `"${a.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    })
    .join(' ');
}
