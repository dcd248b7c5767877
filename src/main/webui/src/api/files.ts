import { getCurrentAccount } from '../lib/currentAccount';
import { ACCOUNT_HEADER, API_BASE, CSRF_HEADER, CSRF_VALUE, requestJson, requestText, withQuery } from './client';
import { ApiError } from './errors';
import type { FileEntry, FileListing, FileSpace, TrashEntry } from './types';
import { apiPath, encodeSpace } from '../lib/filePaths';
import { isResumable, uploadResumable } from './resumable';

const enc = encodeURIComponent;

/** How much of a text file the preview reads. */
export const PREVIEW_BYTES = 256 * 1024;

/** The caller's spaces (own, each account's, public) with access, usage and quota. */
export function listSpaces(signal?: AbortSignal): Promise<FileSpace[]> {
  return requestJson<FileSpace[]>('/spaces', { signal });
}

/** One page of a folder: folders first, then by name. */
export function listFolder(space: string, path: string, cursor?: string | null, signal?: AbortSignal): Promise<FileListing> {
  return requestJson<FileListing>(withQuery(apiPath(space, path), { cursor }), { signal });
}

/**
 * The URL of a folder's entries as Server-Sent Events (the browser's EventSource asks for `text/event-stream`):
 * an `entry` event per entry in the order the disk gives them, then `end` with `{"count": n}`.
 */
export function folderStreamUrl(space: string, path: string): string {
  return API_BASE + apiPath(space, path);
}

/** The URL that downloads a file (as an attachment), shows it inline (`inline`) or a folder as a zip (`zip`). */
export function fileUrl(space: string, path: string, opts: { inline?: boolean; zip?: boolean } = {}): string {
  return API_BASE + withQuery(apiPath(space, path), { inline: opts.inline ? 'true' : null, format: opts.zip ? 'zip' : null });
}

/** The first PREVIEW_BYTES of a text file. */
export function readTextStart(space: string, path: string, signal?: AbortSignal): Promise<string> {
  return requestText(withQuery(apiPath(space, path), { inline: 'true' }), {
    signal,
    accept: 'text/plain',
    headers: { Range: `bytes=0-${PREVIEW_BYTES - 1}` },
  });
}

export function makeFolder(space: string, path: string): Promise<FileEntry> {
  return requestJson<FileEntry>(apiPath(space, path), { method: 'POST', body: { action: 'mkdir' } });
}

/** Moves (or renames) an entry; `toSpace` defaults to the same space. */
export function moveEntry(space: string, path: string, to: string, toSpace?: string, overwrite = false): Promise<FileEntry> {
  return requestJson<FileEntry>(apiPath(space, path), { method: 'POST', body: { action: 'move', to, toSpace, overwrite } });
}

export function copyEntry(space: string, path: string, to: string, toSpace?: string, overwrite = false): Promise<FileEntry> {
  return requestJson<FileEntry>(apiPath(space, path), { method: 'POST', body: { action: 'copy', to, toSpace, overwrite } });
}

/** Moves an entry to its space's trash; a non-empty folder only with `recursive`. */
export function deleteEntry(space: string, path: string, recursive: boolean): Promise<TrashEntry> {
  return requestJson<TrashEntry>(withQuery(apiPath(space, path), { recursive: recursive ? 'true' : null }), { method: 'DELETE' });
}

export function listTrash(space: string, signal?: AbortSignal): Promise<TrashEntry[]> {
  return requestJson<TrashEntry[]>(`/trash/${encodeSpace(space)}`, { signal });
}

export function restoreTrashed(space: string, id: number): Promise<FileEntry> {
  return requestJson<FileEntry>(`/trash/${encodeSpace(space)}/${enc(String(id))}/restore`, { method: 'POST' });
}

export interface UploadHandle {
  /** Settles when the file is written, or rejects with an ApiError (or an AbortError when cancelled). */
  done: Promise<unknown>;
  cancel: () => void;
  /** Resumable uploads only: stop sending, keeping what the server has. */
  pause?: () => void;
  /** Resumable uploads only: go on from the server's offset. */
  resume?: () => void;
}

/** Uploads a file: resumably (tus) above RESUMABLE_ABOVE bytes, else as one plain PUT. */
export function startUpload(
  space: string,
  path: string,
  file: File,
  opts: { overwrite?: boolean; onProgress?: (loaded: number, total: number) => void } = {},
): UploadHandle {
  return isResumable(file.size) ? uploadResumable(space, path, file, opts) : uploadFile(space, path, file, opts);
}

/**
 * Uploads a file with XMLHttpRequest, the one browser API that reports upload progress. The browser sends the
 * Content-Length the server requires; `onProgress` gets the bytes sent so far.
 */
export function uploadFile(
  space: string,
  path: string,
  file: Blob,
  opts: { overwrite?: boolean; onProgress?: (loaded: number, total: number) => void } = {},
): UploadHandle & { done: Promise<FileEntry> } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<FileEntry>((resolve, reject) => {
    xhr.open('PUT', API_BASE + withQuery(apiPath(space, path), { overwrite: opts.overwrite ? 'true' : null }));
    xhr.setRequestHeader(CSRF_HEADER, CSRF_VALUE);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    const account = getCurrentAccount();
    if (account) xhr.setRequestHeader(ACCOUNT_HEADER, account);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      const headers = { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? '' };
      const res = new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, headers });
      if (xhr.status >= 200 && xhr.status < 300) {
        res.json().then((entry) => resolve(entry as FileEntry), reject);
      } else {
        ApiError.fromResponse(res).then(reject, reject);
      }
    };
    xhr.onerror = () => reject(ApiError.network(new Error('the upload was interrupted')));
    xhr.onabort = () => reject(new DOMException('cancelled', 'AbortError'));
    xhr.send(file);
  });
  return { done, cancel: () => xhr.abort() };
}
