/** Parsing of environment variables typed as KEY=VALUE lines; KEY=@credential:NAME takes one of one's credentials. */
import type { EnvValue } from '../../api/types';

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Names the platform sets itself; the server refuses them. */
export const RESERVED_ENV_PREFIXES: readonly string[] = ['CRATER_', 'PET_', 'VC_'];
export const RESERVED_ENV_NAMES: readonly string[] = ['HOME', 'JUPYTER_TOKEN'];

export type EnvLineProblem = 'missingEquals' | 'invalidName' | 'reserved' | 'duplicate' | 'credentialName';

/** How a line names a credential: the value is `@credential:` and the credential's name. */
export const CREDENTIAL_PREFIX = '@credential:';
export const CREDENTIAL_NAME = /^[a-z0-9-]{1,40}$/;

/** A value as its line shows it: plain text as typed, a reference as `@credential:NAME`. */
export function envValueText(value: EnvValue): string {
  return typeof value === 'string' ? value : `${CREDENTIAL_PREFIX}${value.credential}`;
}

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
 * Blank lines and lines starting with "#" are skipped. A value `@credential:NAME` is a reference to the
 * credential NAME (its value never passes through the form).
 */
export function parseEnvLines(text: string): { env: Record<string, EnvValue>; errors: EnvLineError[] } {
  const env: Record<string, EnvValue> = {};
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
    else if (value.trim().startsWith(CREDENTIAL_PREFIX)) {
      const credential = value.trim().slice(CREDENTIAL_PREFIX.length);
      if (CREDENTIAL_NAME.test(credential)) env[name] = { credential };
      else errors.push({ line: lineNo, problem: 'credentialName', name });
    } else env[name] = value;
  });
  return { env, errors };
}
