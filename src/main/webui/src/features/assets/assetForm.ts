import type { Asset, AssetKind, AssetVisibility, CreateAsset, JobMount, UpdateAsset } from '../../api/types';

/** The entry form's values as typed. */
export interface AssetFormValues {
  kind: AssetKind;
  name: string;
  space: string;
  path: string;
  description: string;
  licence: string;
  source: string;
  revision: string;
  visibility: AssetVisibility;
  account: string;
  tags: string;
}

export const NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TAG = /^[a-z0-9](?:[a-z0-9.-]{0,30}[a-z0-9])?$/;

export function emptyAssetForm(kind: AssetKind): AssetFormValues {
  return {
    kind,
    name: '',
    space: 'user',
    path: '/',
    description: '',
    licence: '',
    source: '',
    revision: '',
    visibility: 'private',
    account: '',
    tags: '',
  };
}

/** The form filled from an entry (its stored space `user:<me>` shown as `user` for its owner). */
export function assetFormOf(a: Asset, mySlug: string | undefined): AssetFormValues {
  return {
    kind: a.kind,
    name: a.name,
    space: a.space === `user:${mySlug}` ? 'user' : a.space,
    path: a.path,
    description: a.description,
    licence: a.licence,
    source: a.source,
    revision: a.revision,
    visibility: a.visibility,
    account: a.account ?? '',
    tags: a.tags.join(', '),
  };
}

/** Tags typed as a list separated by commas or spaces: lowercased, without duplicates. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t.length > 0),
    ),
  ];
}

export type AssetFormErrors = Partial<Record<keyof AssetFormValues, string>>;

/** What is wrong before sending, by field (message keys under `assets.form.error`). */
export function checkAssetForm(v: AssetFormValues): AssetFormErrors {
  const out: AssetFormErrors = {};
  if (!NAME.test(v.name)) out.name = 'name';
  if (!v.path.startsWith('/')) out.path = 'path';
  if (v.visibility === 'account' && v.account.trim() === '') out.account = 'account';
  const tags = parseTags(v.tags);
  if (tags.some((t) => !TAG.test(t)) || tags.length > 20) out.tags = 'tags';
  return out;
}

export function createBody(v: AssetFormValues): CreateAsset {
  return {
    kind: v.kind,
    name: v.name.trim(),
    space: v.space,
    path: v.path.trim(),
    description: v.description.trim(),
    licence: v.licence.trim(),
    source: v.source.trim(),
    revision: v.revision.trim(),
    visibility: v.visibility,
    ...(v.visibility === 'account' ? { account: v.account.trim() } : {}),
    tags: parseTags(v.tags),
  };
}

/** The changes from `before`: space and path are sent together when either changed. */
export function updateBody(before: AssetFormValues, v: AssetFormValues): UpdateAsset {
  const body: UpdateAsset = {};
  if (v.name !== before.name) body.name = v.name.trim();
  for (const k of ['description', 'licence', 'source', 'revision'] as const) {
    if (v[k] !== before[k]) body[k] = v[k].trim();
  }
  if (v.space !== before.space || v.path !== before.path) {
    body.space = v.space;
    body.path = v.path.trim();
  }
  if (v.visibility !== before.visibility || v.account !== before.account) {
    body.visibility = v.visibility;
    if (v.visibility === 'account') body.account = v.account.trim();
  }
  if ([...parseTags(v.tags)].sort().join(',') !== [...parseTags(before.tags)].sort().join(',')) body.tags = parseTags(v.tags);
  return body;
}

/** A job's mounts as the job form shows them: one line each, `dataset imagenet /data/imagenet`. */
export function mountLines(mounts: JobMount[] | undefined): string {
  return (mounts ?? []).map((m) => (m.model ? `model ${m.model} ${m.path}` : `dataset ${m.dataset ?? ''} ${m.path}`)).join('\n');
}

export interface MountLineError {
  line: number;
}

/** Reads the job form's mount lines; the lines that are not `dataset|model <name> <path>`. */
export function parseMountLines(text: string): { mounts: JobMount[]; errors: MountLineError[] } {
  const mounts: JobMount[] = [];
  const errors: MountLineError[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const [kind, ref, path, ...rest] = line.split(/\s+/);
    if ((kind !== 'dataset' && kind !== 'model') || !ref || !path || rest.length > 0 || !path.startsWith('/')) {
      errors.push({ line: i + 1 });
      return;
    }
    mounts.push(kind === 'dataset' ? { dataset: ref, path } : { model: ref, path });
  });
  return { mounts, errors };
}

/** The line to add for an entry: mounted at /data/<name> or /models/<name>. */
export function mountLineFor(a: Pick<Asset, 'kind' | 'name' | 'owner'>, mine: boolean): string {
  const ref = mine || !a.owner ? a.name : `${a.owner}/${a.name}`;
  return `${a.kind} ${ref} ${a.kind === 'model' ? '/models' : '/data'}/${a.name}`;
}
