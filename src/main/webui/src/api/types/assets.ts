/** Wire types of datasets and models: catalogue entries pointing at a folder or file of a file space. */

export type AssetKind = 'dataset' | 'model';
export type AssetVisibility = 'private' | 'account' | 'public';

/** An entry as the caller sees it; `space` is the same for every reader (`user:<slug>`, `account:<slug>`, `public`). */
export interface Asset {
  id: string;
  kind: AssetKind;
  name: string;
  owner: string | null;
  description: string;
  space: string;
  path: string;
  targetType: 'folder' | 'file';
  sizeBytes: number;
  files: number;
  measuredAt: string;
  licence: string;
  source: string;
  revision: string;
  visibility: AssetVisibility;
  account: string | null;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  mayEdit: boolean;
}

export interface AssetPage {
  items: Asset[];
  nextCursor: string | null;
}

/** A new entry; `space` as the file API names it (`user` is one's own). */
export interface CreateAsset {
  kind: AssetKind;
  name: string;
  description?: string;
  space?: string;
  path: string;
  licence?: string;
  source?: string;
  revision?: string;
  visibility?: AssetVisibility;
  account?: string;
  tags?: string[];
}

/** Changes to an entry: absent fields stay; `space` and `path` change together. */
export interface UpdateAsset {
  name?: string;
  description?: string;
  space?: string;
  path?: string;
  licence?: string;
  source?: string;
  revision?: string;
  visibility?: AssetVisibility;
  account?: string;
  tags?: string[];
}

/** An entry as a job mounted it (read-only at `path`); `id` and `owner` are null once the entry is deleted. */
export interface AssetMount {
  kind: AssetKind;
  id: string | null;
  name: string;
  owner: string | null;
  path: string;
  space: string | null;
  source: string | null;
}
