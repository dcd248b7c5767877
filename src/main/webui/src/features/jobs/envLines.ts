/** Parsing of environment variables typed as KEY=VALUE lines. */

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Names the platform sets itself; the server refuses them. */
export const RESERVED_ENV_PREFIXES: readonly string[] = ['CRATER_', 'PET_', 'VC_'];
export const RESERVED_ENV_NAMES: readonly string[] = ['HOME', 'JUPYTER_TOKEN'];

export type EnvLineProblem = 'missingEquals' | 'invalidName' | 'reserved' | 'duplicate';

export interface EnvLineError {
  /** 1-based line number in the text. */
  line: number;
  problem: EnvLineProblem;
  /** The variable name as typed (empty when the line has none). */
  name: string;
}

export function isReservedEnvName(name: string): boolean {
  return RESERVED_ENV_NAMES.includes(name) || RESERVED_ENV_PREFIXES.some((p) => name.startsWith(p));
}

/**
 * Reads one variable per line: the name is everything before the first "=" (surrounding spaces ignored),
 * the value everything after it, kept as typed (it may contain "=" and spaces; a trailing \r is dropped).
 * Blank lines and lines starting with "#" are skipped.
 */
export function parseEnvLines(text: string): { env: Record<string, string>; errors: EnvLineError[] } {
  const env: Record<string, string> = {};
  const errors: EnvLineError[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const lineNo = index + 1;
    const eq = line.indexOf('=');
    if (eq < 0) {
      errors.push({ line: lineNo, problem: 'missingEquals', name: trimmed });
      return;
    }
    const name = line.slice(0, eq).trim();
    const value = line.slice(eq + 1);
    if (!ENV_NAME.test(name)) errors.push({ line: lineNo, problem: 'invalidName', name });
    else if (isReservedEnvName(name)) errors.push({ line: lineNo, problem: 'reserved', name });
    else if (Object.prototype.hasOwnProperty.call(env, name)) errors.push({ line: lineNo, problem: 'duplicate', name });
    else env[name] = value;
  });
  return { env, errors };
}
