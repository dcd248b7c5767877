/** A download from a model hub (docs/assets.md, "Downloads from a hub"); bytes in bytes. */
export interface Download {
  id: string;
  kind: 'dataset' | 'model';
  hub: string;
  endpoint: string;
  repository: string;
  revision: string;
  sha: string;
  include: string[];
  exclude: string[];
  credential: string | null;
  name: string;
  owner: string;
  space: string;
  path: string;
  visibility: 'private' | 'account' | 'public';
  account: string | null;
  state: 'running' | 'paused' | 'succeeded' | 'failed';
  reason: string;
  message: string;
  warnings: string[];
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  files: number;
  percent: number;
  job: string | null;
  asset: string | null;
  deduplicated: boolean;
  mayEdit: boolean;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface CreateDownload {
  kind: 'dataset' | 'model';
  hub: 'huggingface' | 'modelscope';
  repository: string;
  revision?: string;
  include?: string[];
  exclude?: string[];
  credential?: string;
  name: string;
  space: string;
  path: string;
  visibility?: 'private' | 'account' | 'public';
  account?: string;
}

/** A page of downloads. */
export interface DownloadPage {
  items: Download[];
}
