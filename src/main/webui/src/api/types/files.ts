/** Wire types of the Crater REST API (v1): file spaces, their entries and their trash (docs/storage.md). */

/** What a caller may do in a space. */
export type SpaceAccess = 'rw' | 'ro';

/** One entry of a folder: `size` in bytes for a file, 0 otherwise; a link is shown, never followed. */
export interface FileEntry {
  name: string;
  path: string;
  type: 'folder' | 'file' | 'link';
  size: number;
  modified: string;
}

/** One page of a folder: folders first, then by name; `nextCursor` null on the last page; `total` counts all. */
export interface FileListing {
  space: string;
  path: string;
  items: FileEntry[];
  nextCursor: string | null;
  total: number;
}

/** A space the caller may see (`user`, `account:<slug>`, `public`) with usage and quota (-1: unlimited). */
export interface FileSpace {
  name: string;
  kind: string;
  access: SpaceAccess;
  usedBytes: number;
  usedFiles: number;
  maxBytes: number;
  maxFiles: number;
}

/** An entry of a space's trash, restorable until `expiresAt`. */
export interface TrashEntry {
  id: number;
  path: string;
  type: string;
  bytes: number;
  files: number;
  deletedAt: string;
  expiresAt: string;
}

/** A change asked of a path: make a folder, or move or copy the entry to `to` (in `toSpace`, the same when absent). */
export interface FileChange {
  action: 'mkdir' | 'move' | 'copy';
  to?: string;
  toSpace?: string;
  overwrite?: boolean;
}
