import type { CreateImage, Image, ImageCheck, ImageVisibility, UpdateImage } from '../../api/types';

/** The job kinds and CPU architectures the catalogue knows (docs/assets.md). */
export const IMAGE_KINDS = ['jupyter', 'webide', 'custom', 'pytorch', 'inference'] as const;
export const ARCHITECTURES = ['amd64', 'arm64', 'ppc64le', 's390x', 'riscv64', '386', 'arm', 'loong64', 'mips64le'] as const;

/** The image form's values as typed: lists as text separated by commas or spaces, kinds and architectures ticked. */
export interface ImageFormValues {
  reference: string;
  tags: string;
  description: string;
  cudaVersion: string;
  architectures: string[];
  vendors: string;
  kinds: string[];
  visibility: ImageVisibility;
  account: string;
  users: string;
  accounts: string;
}

const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const CUDA = /^[0-9]{1,2}\.[0-9]{1,2}(?:\.[0-9]{1,3})?$/;

export function emptyImageForm(): ImageFormValues {
  return {
    reference: '',
    tags: '',
    description: '',
    cudaVersion: '',
    architectures: ['amd64'],
    vendors: '',
    kinds: [],
    visibility: 'private',
    account: '',
    users: '',
    accounts: '',
  };
}

export function imageFormOf(i: Image): ImageFormValues {
  return {
    reference: i.reference,
    tags: i.tags.join(', '),
    description: i.description ?? '',
    cudaVersion: i.cudaVersion ?? '',
    architectures: [...i.architectures],
    vendors: i.vendors.join(', '),
    kinds: [...i.kinds],
    visibility: i.visibility,
    account: i.account ?? '',
    users: i.sharedWith.users.join(', '),
    accounts: i.sharedWith.accounts.join(', '),
  };
}

/** A list typed with commas or spaces, in the order given, without blanks or repeats. */
export function parseList(text: string, lower = false): string[] {
  const words = text
    .split(/[\s,]+/)
    .map((w) => (lower ? w.trim().toLowerCase() : w.trim()))
    .filter((w) => w.length > 0);
  return [...new Set(words)];
}

export type ImageFormErrors = Partial<Record<keyof ImageFormValues, string>>;

/** What is wrong before sending, by field (message keys under `images.form.error`). */
export function checkImageForm(v: ImageFormValues): ImageFormErrors {
  const out: ImageFormErrors = {};
  const ref = v.reference.trim();
  if (ref === '' || ref.includes('@') || /:[^/]*$/.test(ref.slice(ref.indexOf('/') + 1)) || /\s/.test(ref)) {
    out.reference = 'reference';
  }
  const tags = parseList(v.tags);
  if (tags.length === 0 || tags.length > 50 || tags.some((t) => !TAG.test(t))) out.tags = 'tags';
  if (v.cudaVersion.trim() !== '' && !CUDA.test(v.cudaVersion.trim())) out.cudaVersion = 'cudaVersion';
  if (v.visibility === 'account' && v.account.trim() === '') out.account = 'account';
  return out;
}

export function createImageBody(v: ImageFormValues): CreateImage {
  return {
    reference: v.reference.trim(),
    tags: parseList(v.tags),
    description: v.description.trim(),
    cudaVersion: v.cudaVersion.trim(),
    architectures: v.architectures,
    vendors: parseList(v.vendors, true),
    kinds: v.kinds,
    visibility: v.visibility,
    ...(v.visibility === 'account' ? { account: v.account.trim() } : {}),
    sharedWith: { users: parseList(v.users), accounts: parseList(v.accounts, true) },
  };
}

const same = (a: string[], b: string[]) => a.join('\n') === b.join('\n');

/** The changes from `before`; lists are sent whole when they changed. */
export function updateImageBody(before: ImageFormValues, v: ImageFormValues): UpdateImage {
  const body: UpdateImage = {};
  if (v.reference.trim() !== before.reference) body.reference = v.reference.trim();
  if (!same(parseList(v.tags), parseList(before.tags))) body.tags = parseList(v.tags);
  if (v.description !== before.description) body.description = v.description.trim();
  if (v.cudaVersion !== before.cudaVersion) body.cudaVersion = v.cudaVersion.trim();
  if (!same([...v.architectures].sort(), [...before.architectures].sort())) body.architectures = v.architectures;
  if (!same(parseList(v.vendors, true), parseList(before.vendors, true))) body.vendors = parseList(v.vendors, true);
  if (!same([...v.kinds].sort(), [...before.kinds].sort())) body.kinds = v.kinds;
  if (v.visibility !== before.visibility || v.account !== before.account) {
    body.visibility = v.visibility;
    if (v.visibility === 'account') body.account = v.account.trim();
  }
  if (!same(parseList(v.users), parseList(before.users)) || !same(parseList(v.accounts, true), parseList(before.accounts, true))) {
    body.sharedWith = { users: parseList(v.users), accounts: parseList(v.accounts, true) };
  }
  return body;
}

/** The last check of each tag, in the image's tag order; a tag never checked has none. */
export function checksByTag(i: Pick<Image, 'tags' | 'checks'>): { tag: string; check: ImageCheck | undefined }[] {
  return i.tags.map((tag) => ({ tag, check: i.checks.find((c) => c.tag === tag) }));
}

/** How the checks went, for the list: every tag ok, some not, or none checked yet. */
export function checkSummary(i: Pick<Image, 'tags' | 'checks'>): { ok: number; total: number; state: 'ok' | 'failed' | 'unchecked' } {
  const rows = checksByTag(i);
  const ok = rows.filter((r) => r.check?.result === 'ok').length;
  const checked = rows.filter((r) => r.check !== undefined).length;
  return { ok, total: rows.length, state: checked === 0 ? 'unchecked' : ok === rows.length ? 'ok' : 'failed' };
}

/** The badge tone of a check's result: found, missing, refused, or not reached. */
export function checkTone(result: ImageCheck['result'] | undefined): 'success' | 'danger' | 'warning' | 'neutral' {
  switch (result) {
    case 'ok':
      return 'success';
    case 'not-found':
      return 'danger';
    case 'unauthorized':
    case 'unreachable':
      return 'warning';
    default:
      return 'neutral';
  }
}
