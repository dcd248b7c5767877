/** Wire types of the image catalogue: container images described for jobs and checked against their registries. */

export type ImageVisibility = 'private' | 'account' | 'public';
export type ImageCheckResult = 'ok' | 'not-found' | 'unauthorized' | 'unreachable';

/** Users (by username) and accounts (by slug) an image is shared with besides its visibility. */
export interface ImageShares {
  users: string[];
  accounts: string[];
}

/** The last check of one tag; `digest` is what the tag resolved to when `ok`. */
export interface ImageCheck {
  tag: string;
  result: ImageCheckResult;
  detail: string | null;
  digest: string | null;
  mediaType: string | null;
  checkedAt: string;
}

/** An image as the caller sees it; its share lists are empty for those who may not change it. */
export interface Image {
  id: string;
  reference: string;
  registry: string;
  repository: string;
  owner: string | null;
  description: string;
  tags: string[];
  cudaVersion: string;
  architectures: string[];
  vendors: string[];
  kinds: string[];
  visibility: ImageVisibility;
  account: string | null;
  sharedWith: ImageShares;
  checks: ImageCheck[];
  createdAt: string;
  updatedAt: string;
  mayEdit: boolean;
}

export interface ImagePage {
  items: Image[];
  nextCursor: string | null;
}

/** A new image; `reference` without tag or digest. */
export interface CreateImage {
  reference: string;
  description?: string;
  tags: string[];
  cudaVersion?: string;
  architectures?: string[];
  vendors?: string[];
  kinds?: string[];
  visibility?: ImageVisibility;
  account?: string;
  sharedWith?: ImageShares;
}

/** Changes to an image: absent fields stay; a list given replaces the old one. */
export interface UpdateImage {
  reference?: string;
  description?: string;
  tags?: string[];
  cudaVersion?: string;
  architectures?: string[];
  vendors?: string[];
  kinds?: string[];
  visibility?: ImageVisibility;
  account?: string;
  sharedWith?: ImageShares;
}
