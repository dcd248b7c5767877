/**
 * Plain environment values whose names look like secrets (tokens, keys, passwords): everyone in the account can
 * read a job's environment, so the form offers to store such a value as a credential and reference it instead.
 */
import type { CredentialKind } from '../../api/types';
import { CREDENTIAL_PREFIX } from './envLines';

const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A plain value on a line of the env text that looks like a secret. */
export interface SecretLine {
  /** 1-based line number in the text. */
  line: number;
  name: string;
  value: string;
}

/** The KEY=VALUE lines with a secret-looking name and a plain, non-empty value (references are fine). */
export function secretLines(text: string): SecretLine[] {
  const out: SecretLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim().startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq < 0) return;
    const name = line.slice(0, eq).trim();
    const value = line.slice(eq + 1);
    if (looksSecret(name) && value.trim() !== '' && !value.trim().startsWith(CREDENTIAL_PREFIX)) {
      out.push({ line: index + 1, name, value });
    }
  });
  return out;
}

/** A credential name for a variable: lowercase, `_` as `-`, other characters dropped, at most 40. */
export function suggestCredentialName(variable: string): string {
  const name = variable
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');
  return name === '' ? 'secret' : name;
}

/** The kind a variable's name suggests. */
export function suggestCredentialKind(variable: string): CredentialKind {
  const n = variable.toUpperCase();
  if (n.startsWith('HF_') || n.startsWith('HUGGING')) return 'huggingface';
  if (n.startsWith('MODELSCOPE')) return 'modelscope';
  if (n.startsWith('WANDB')) return 'wandb';
  return 'generic';
}

/** The env text with the value on `line` replaced by a reference to `credential`; other lines untouched. */
export function referenceCredentialOnLine(text: string, line: number, credential: string): string {
  return text
    .split('\n')
    .map((raw, index) => {
      if (index + 1 !== line) return raw;
      const eq = raw.indexOf('=');
      return eq < 0 ? raw : `${raw.slice(0, eq + 1)}${CREDENTIAL_PREFIX}${credential}`;
    })
    .join('\n');
}
