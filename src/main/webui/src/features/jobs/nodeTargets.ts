import type { NodeTargets } from '../../api/types';
import type { UnitProblem } from '../../lib/units';

/** Any node, only the listed nodes (`use`), or any node but them (`avoid`): one list, never both. */
export type NodeMode = 'any' | 'use' | 'avoid';

export const NODE_MODES: readonly NodeMode[] = ['any', 'use', 'avoid'];

/** The form's nodes field: the choice and the names listed (kept when the choice goes back to any node). */
export interface NodeTargetsForm {
  mode: NodeMode;
  names: string[];
}

export const ANY_NODE: NodeTargetsForm = { mode: 'any', names: [] };

/** At most this many names in a list (the server's limit). */
export const MAX_NODE_NAMES = 64;

/** A node's name as Kubernetes allows it: a lowercase DNS subdomain (RFC 1123) of at most 253 characters. */
const NODE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isNodeName(name: string): boolean {
  return name.length <= 253 && NODE_NAME.test(name);
}

/** Names typed or pasted at once ("a100-1, a100-2 a100-3"): split at commas and white space, empty parts dropped. */
export function splitNodeNames(text: string): string[] {
  return text.split(/[\s,]+/).filter((n) => n !== '');
}

/** `names` with `added` appended, each once. */
export function addNodeNames(names: readonly string[], added: readonly string[]): string[] {
  const out = [...names];
  for (const n of added) if (!out.includes(n)) out.push(n);
  return out;
}

/** The first thing wrong with the field as the server would see it, or null when it can be sent. */
export function nodeTargetsProblem(form: NodeTargetsForm): UnitProblem | null {
  if (form.mode === 'any') return null;
  if (form.names.length === 0) return { key: 'jobs.nodes.required' };
  if (form.names.length > MAX_NODE_NAMES) return { key: 'jobs.nodes.tooMany', values: { max: MAX_NODE_NAMES, count: form.names.length } };
  const seen = new Set<string>();
  for (const name of form.names) {
    if (!isNodeName(name)) return { key: 'jobs.nodes.invalidName', values: { name } };
    if (seen.has(name)) return { key: 'jobs.nodes.twice', values: { name } };
    seen.add(name);
  }
  return null;
}

/** What is sent: `{use: [...]}` or `{avoid: [...]}`; undefined for any node (the field is left out). */
export function nodeTargetsBody(form: NodeTargetsForm): NodeTargets | undefined {
  if (form.mode === 'any' || form.names.length === 0) return undefined;
  return form.mode === 'use' ? { use: [...form.names] } : { avoid: [...form.names] };
}

/** The field as a job's spec names its nodes (a clone keeps them; a resubmission's avoid list included). */
export function nodeTargetsFromSpec(nodes: NodeTargets | null | undefined): NodeTargetsForm {
  const use = nodes?.use ?? [];
  const avoid = nodes?.avoid ?? [];
  if (use.length > 0) return { mode: 'use', names: [...use] };
  if (avoid.length > 0) return { mode: 'avoid', names: [...avoid] };
  return ANY_NODE;
}

/** Whether a server field error belongs to the nodes field: `nodes`, `nodes.use`, `nodes.avoid[3]`. */
export function isNodesField(field: string): boolean {
  return field === 'nodes' || field.startsWith('nodes.');
}

/**
 * A server field error of the nodes field as shown under it: an error about one name (`nodes.use[2]`) says which
 * name, as the form lists it.
 */
export function nodeFieldErrorText(field: string, message: string, names: readonly string[]): string {
  const m = /^nodes\.(use|avoid)\[(\d+)\]$/.exec(field);
  const name = m ? names[Number(m[2])] : undefined;
  return name !== undefined ? `${name}: ${message}` : message;
}
