import { isApiError } from '../../api/errors';
import type { Build, BuildState, CreateBuild, Credential } from '../../api/types';
import { parseList } from './imageForm';

/** The build dialog's values as typed: packages one per line or separated by spaces, kinds ticked. */
export interface BuildFormValues {
  mode: 'packages' | 'dockerfile';
  base: string;
  pip: string;
  apt: string;
  dockerfile: string;
  destination: string;
  credential: string;
  description: string;
  cudaVersion: string;
  kinds: string[];
  vendors: string;
}

export type BuildFormErrors = Partial<Record<keyof BuildFormValues, string>>;

export const MAX_PACKAGES = 100;
export const MAX_DOCKERFILE_BYTES = 64 * 1024;

// The same patterns as the server's checks (io.crater.policy.ImageBuilds, ImageReferences).
const PIP = new RegExp(
  '^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?' +
    '(?:\\[[A-Za-z0-9][A-Za-z0-9._-]{0,40}(?:,[A-Za-z0-9][A-Za-z0-9._-]{0,40}){0,15}\\])?' +
    '(?:(?:===|==|>=|<=|~=|!=|>|<)[A-Za-z0-9][A-Za-z0-9.*+!_-]{0,60}' +
    '(?:,(?:===|==|>=|<=|~=|!=|>|<)[A-Za-z0-9][A-Za-z0-9.*+!_-]{0,60}){0,5})?$',
);
const APT = /^[a-z0-9][a-z0-9+.-]{1,99}(?:=[A-Za-z0-9][A-Za-z0-9.+~:-]{0,99})?$/;
const BASE = /^[a-z0-9][a-z0-9._/:-]{0,254}(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;
const FROM = /^\s*FROM\s+\S+/im;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const CUDA = /^[0-9]{1,2}\.[0-9]{1,2}(?:\.[0-9]{1,3})?$/;
const VENDOR = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

export function emptyBuildForm(): BuildFormValues {
  return {
    mode: 'packages',
    base: '',
    pip: '',
    apt: '',
    dockerfile: '',
    destination: '',
    credential: '',
    description: '',
    cudaVersion: '',
    kinds: [],
    vendors: '',
  };
}

/** Packages as typed: separated by spaces or new lines (pip's version clauses hold commas), without repeats. */
export function parsePackages(text: string): string[] {
  return [...new Set(text.split(/\s+/).filter((w) => w.length > 0))];
}

function checkPackages(v: BuildFormValues, out: BuildFormErrors) {
  const base = v.base.trim();
  if (base === '') out.base = 'baseRequired';
  else if (!BASE.test(base)) out.base = 'base';
  const pip = parsePackages(v.pip);
  const apt = parsePackages(v.apt);
  if (pip.length > MAX_PACKAGES) out.pip = 'tooMany';
  else if (pip.some((p) => !PIP.test(p))) out.pip = 'pip';
  if (apt.length > MAX_PACKAGES) out.apt = 'tooMany';
  else if (apt.some((p) => !APT.test(p))) out.apt = 'apt';
  if (pip.length === 0 && apt.length === 0) out.pip = 'noPackages';
}

function checkDockerfile(text: string): string | undefined {
  if (text.trim() === '') return 'dockerfileRequired';
  if (new TextEncoder().encode(text).length > MAX_DOCKERFILE_BYTES) return 'dockerfileSize';
  if (text.includes('\u0000')) return 'dockerfileNul';
  return FROM.test(text) ? undefined : 'dockerfileFrom';
}

/** `registry/repository:tag`, the tag named, no spaces; the server also checks the registry and the credential. */
function destinationError(text: string): string | undefined {
  const d = text.trim();
  if (d === '') return 'destinationRequired';
  const colon = d.lastIndexOf(':');
  if (/\s/.test(d) || d.includes('@') || colon <= d.lastIndexOf('/') || !TAG.test(d.slice(colon + 1))) return 'destination';
  return undefined;
}

/** What is wrong before sending, by field (message keys under `imageBuilds.form.error`). */
export function checkBuildForm(v: BuildFormValues): BuildFormErrors {
  const out: BuildFormErrors = {};
  if (v.mode === 'packages') checkPackages(v, out);
  else {
    const e = checkDockerfile(v.dockerfile);
    if (e) out.dockerfile = e;
  }
  const d = destinationError(v.destination);
  if (d) out.destination = d;
  if (v.description.length > 2000) out.description = 'description';
  if (v.cudaVersion.trim() !== '' && !CUDA.test(v.cudaVersion.trim())) out.cudaVersion = 'cudaVersion';
  const vendors = parseList(v.vendors, true);
  if (vendors.length > 10 || vendors.some((x) => !VENDOR.test(x))) out.vendors = 'vendors';
  return out;
}

/** The request: only the chosen mode's fields, optional ones left out when empty. */
export function createBuildBody(v: BuildFormValues): CreateBuild {
  const body: CreateBuild =
    v.mode === 'packages'
      ? { base: v.base.trim(), pip: parsePackages(v.pip), apt: parsePackages(v.apt), destination: v.destination.trim() }
      : { dockerfile: v.dockerfile, destination: v.destination.trim() };
  if (v.credential !== '') body.credential = v.credential;
  if (v.description.trim() !== '') body.description = v.description.trim();
  if (v.cudaVersion.trim() !== '') body.cudaVersion = v.cudaVersion.trim();
  if (v.kinds.length > 0) body.kinds = v.kinds;
  const vendors = parseList(v.vendors, true);
  if (vendors.length > 0) body.vendors = vendors;
  return body;
}

/**
 * The server's refusal of one form field: `pip[2]` belongs to the pip field and names the package it refused.
 * The form has no field for the others (left for the summary).
 */
export function buildFieldError(error: unknown, field: keyof BuildFormValues, v: BuildFormValues): string | undefined {
  if (!isApiError(error)) return undefined;
  for (const f of error.fieldErrors) {
    if (f.field === field) return f.message;
    const m = /^(pip|apt)\[(\d+)\]$/.exec(f.field);
    if (m && m[1] === field) {
      const name = parsePackages(field === 'pip' ? v.pip : v.apt)[Number(m[2])];
      return name ? `${name}: ${f.message}` : f.message;
    }
  }
  return undefined;
}

export const BUILD_FIELDS = [
  'base',
  'pip',
  'apt',
  'dockerfile',
  'destination',
  'credential',
  'description',
  'cudaVersion',
  'kinds',
  'vendors',
];

/** Whether the dialog shows a server field error beside a field (`pip[3]` beside pip). */
export function isBuildField(field: string): boolean {
  return BUILD_FIELDS.includes(field.replace(/\[\d+\]$/, ''));
}

/** Only registry credentials can log a builder in. */
export function registryCredentials(items: Credential[]): Credential[] {
  return items.filter((c) => c.kind === 'registry');
}

/** A build still moving: the job runs, or the registry is being asked for what it pushed. */
export function isRunning(state: BuildState): boolean {
  return state === 'building' || state === 'pushed';
}

export function buildTone(state: BuildState): 'success' | 'danger' | 'info' | 'neutral' {
  switch (state) {
    case 'succeeded':
      return 'success';
    case 'failed':
      return 'danger';
    case 'building':
    case 'pushed':
      return 'info';
    default:
      return 'neutral';
  }
}

/** How long a build ran (or has run so far), in whole seconds. */
export function buildSeconds(b: Pick<Build, 'createdAt' | 'finishedAt'>, now: number = Date.now()): number {
  const end = b.finishedAt ? Date.parse(b.finishedAt) : now;
  return Math.max(0, Math.round((end - Date.parse(b.createdAt)) / 1000));
}
