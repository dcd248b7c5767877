/** Paths inside a file space, and the console routes and API paths built from them. All pure. */

/** The segments of a path inside a space: "/a//b/" → ["a", "b"]; "" and "/" → []. */
export function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** A normalised path inside a space: always starts with "/", never ends with one (the root is "/"). */
export function normalise(path: string): string {
  return `/${segments(path).join('/')}`;
}

/** The path of `name` inside the folder `folder`. */
export function join(folder: string, name: string): string {
  return normalise(`${folder}/${name}`);
}

/** The folder holding `path`; the root's parent is the root. */
export function parent(path: string): string {
  const s = segments(path);
  return `/${s.slice(0, -1).join('/')}`;
}

/** The last segment of `path`; "" for the root. */
export function baseName(path: string): string {
  const s = segments(path);
  return s[s.length - 1] ?? '';
}

/** Each segment percent-encoded on its own, so a name with "/", "?", "#" or "%" stays one segment. */
function encodeSegments(path: string): string {
  return segments(path).map(encodeURIComponent).join('/');
}

/** A space name in a URL: encoded, but keeping the colon of `account:<slug>` readable. */
export function encodeSpace(space: string): string {
  return encodeURIComponent(space).replace(/%3A/gi, ':');
}

/** The console route of a folder: ("account:lab", "/data/x y") → "/files/account:lab/data/x%20y". */
export function folderRoute(space: string, path: string): string {
  const rest = encodeSegments(path);
  return rest === '' ? `/files/${encodeSpace(space)}` : `/files/${encodeSpace(space)}/${rest}`;
}

/** The console route of a space's trash. */
export function trashRoute(space: string): string {
  return `/files/${encodeSpace(space)}?view=trash`;
}

/** The API path (under /api/v1) of an entry: ("user", "/a b") → "/files/user/a%20b"; the root → "/files/user". */
export function apiPath(space: string, path: string): string {
  const rest = encodeSegments(path);
  return rest === '' ? `/files/${encodeSpace(space)}` : `/files/${encodeSpace(space)}/${rest}`;
}

/** The path inside the space from the route's splat (already decoded by the router). */
export function pathFromSplat(splat: string | undefined): string {
  return normalise(splat ?? '');
}

export interface Crumb {
  /** The segment's name; null for the space's root. */
  name: string | null;
  path: string;
  route: string;
}

/** The breadcrumbs of a folder: its space's root, then each folder on the way, the last being the folder itself. */
export function breadcrumbs(space: string, path: string): Crumb[] {
  const out: Crumb[] = [{ name: null, path: '/', route: folderRoute(space, '/') }];
  const s = segments(path);
  s.forEach((name, i) => {
    const p = `/${s.slice(0, i + 1).join('/')}`;
    out.push({ name, path: p, route: folderRoute(space, p) });
  });
  return out;
}

/**
 * The folders an upload of relative paths needs, parents before children: ["a/b/c.txt", "a/d.txt"] → ["a", "a/b"].
 * Each relative path names a file; its folders are made inside `base`.
 */
export function foldersFor(base: string, relativePaths: string[]): string[] {
  const folders = new Set<string>();
  for (const rel of relativePaths) {
    const s = segments(rel);
    for (let i = 1; i < s.length; i++) folders.add(join(base, s.slice(0, i).join('/')));
  }
  return [...folders].sort((a, b) => segments(a).length - segments(b).length || a.localeCompare(b));
}

/** A space's kind and name for display: "user" → {kind: "user"}, "account:lab" → {kind: "account", slug: "lab"}. */
export function spaceKind(space: string): { kind: 'user' | 'account' | 'public' | 'other'; slug?: string } {
  if (space === 'user') return { kind: 'user' };
  if (space === 'public') return { kind: 'public' };
  if (space.startsWith('account:')) return { kind: 'account', slug: space.slice('account:'.length) };
  return { kind: 'other' };
}

const IMAGE = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);
const TEXT = new Set([
  'txt',
  'md',
  'markdown',
  'log',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'yaml',
  'yml',
  'toml',
  'ini',
  'cfg',
  'conf',
  'env',
  'py',
  'ipynb',
  'sh',
  'bash',
  'zsh',
  'r',
  'jl',
  'java',
  'kt',
  'scala',
  'go',
  'rs',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cu',
  'js',
  'mjs',
  'ts',
  'tsx',
  'jsx',
  'css',
  'sql',
  'xml',
  'tex',
  'bib',
  'rst',
  'gitignore',
  'dockerfile',
  'makefile',
]);

/** What the preview can show of a file: an image (PNG, JPEG, GIF, WebP), text, or nothing; chosen by its name. */
export function previewKind(name: string): 'image' | 'text' | null {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  const ext = dot >= 0 ? lower.slice(dot + 1) : lower;
  if (IMAGE.has(ext)) return 'image';
  if (TEXT.has(ext)) return 'text';
  return null;
}

const MOUNTS = '/crater/';

/**
 * Where a job's working directory is in the file manager, from the mounts every job gets (docs/jobs.md):
 * `/crater/user` is its owner's space (so only the owner sees it as "user"), `/crater/account` its account's,
 * `/crater/public` the public one. Null for any other folder, or for another person's own space.
 */
export function workingDirRoute(
  workingDir: string | undefined,
  job: { account: string; owner: string },
  viewer: string | null,
): string | null {
  if (!workingDir?.startsWith(MOUNTS)) return null;
  const [mount, ...rest] = segments(workingDir.slice(MOUNTS.length));
  const path = `/${rest.join('/')}`;
  if (mount === 'user') return viewer !== null && viewer === job.owner ? folderRoute('user', path) : null;
  if (mount === 'account') return folderRoute(`account:${job.account}`, path);
  if (mount === 'public') return folderRoute('public', path);
  return null;
}
