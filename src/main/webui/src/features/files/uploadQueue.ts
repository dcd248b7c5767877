import type { ProblemReason } from '../../api/errors';
import { isResumable } from '../../api/resumable';

/**
 * The upload queue as a pure state machine: queued → uploading (with progress) → done | failed | cancelled; a failed
 * or cancelled upload can be retried (back to queued), and a conflict retried with `overwrite` to replace the file.
 * A resumable upload (tus, for files above RESUMABLE_ABOVE) can also be paused and resumed: uploading ⇄ paused; it
 * goes on from the offset the server holds.
 */

export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'failed' | 'cancelled';

export interface UploadError {
  message: string;
  /** The problem's coded reasons (a quota refusal's numbers). */
  reasons: ProblemReason[];
  /** 409 AlreadyExists: the same upload with overwrite replaces the file. */
  conflict: boolean;
}

export interface UploadItem {
  id: string;
  space: string;
  /** The path the file is written to, inside the space. */
  path: string;
  file: File;
  status: UploadStatus;
  /** Bytes sent so far. */
  loaded: number;
  /** Bytes of the file. */
  total: number;
  overwrite: boolean;
  /** Sent as a resumable upload, so it can be paused and resumed. */
  resumable: boolean;
  error: UploadError | null;
}

export type UploadAction =
  | { type: 'add'; items: { id: string; space: string; path: string; file: File }[] }
  | { type: 'start'; id: string }
  | { type: 'progress'; id: string; loaded: number }
  | { type: 'done'; id: string }
  | { type: 'fail'; id: string; error: UploadError }
  | { type: 'cancel'; id: string }
  | { type: 'pause'; id: string }
  | { type: 'resume'; id: string }
  | { type: 'retry'; id: string; overwrite?: boolean }
  | { type: 'clear' };

/** At most this many uploads run at once; the rest wait their turn. */
export const PARALLEL_UPLOADS = 3;

function update(items: UploadItem[], id: string, from: UploadStatus[], change: (i: UploadItem) => UploadItem): UploadItem[] {
  return items.map((i) => (i.id === id && from.includes(i.status) ? change(i) : i));
}

export function uploadReducer(items: UploadItem[], action: UploadAction): UploadItem[] {
  switch (action.type) {
    case 'add':
      return [
        ...items,
        ...action.items.map((a) => ({
          ...a,
          status: 'queued' as const,
          loaded: 0,
          total: a.file.size,
          overwrite: false,
          resumable: isResumable(a.file.size),
          error: null,
        })),
      ];
    case 'start':
      return update(items, action.id, ['queued'], (i) => ({ ...i, status: 'uploading', loaded: 0 }));
    case 'progress':
      return update(items, action.id, ['uploading'], (i) => ({ ...i, loaded: Math.min(i.total, Math.max(i.loaded, action.loaded)) }));
    case 'done':
      return update(items, action.id, ['uploading'], (i) => ({ ...i, status: 'done', loaded: i.total, error: null }));
    case 'fail':
      return update(items, action.id, ['uploading'], (i) => ({ ...i, status: 'failed', error: action.error }));
    case 'cancel':
      return update(items, action.id, ['queued', 'uploading', 'paused'], (i) => ({ ...i, status: 'cancelled' }));
    case 'pause':
      return items.map((i) => (i.id === action.id && i.status === 'uploading' && i.resumable ? { ...i, status: 'paused' } : i));
    case 'resume':
      return update(items, action.id, ['paused'], (i) => ({ ...i, status: 'uploading' }));
    case 'retry':
      return update(items, action.id, ['failed', 'cancelled'], (i) => ({
        ...i,
        status: 'queued',
        loaded: 0,
        error: null,
        overwrite: action.overwrite ?? i.overwrite,
      }));
    case 'clear':
      return items.filter((i) => i.status === 'queued' || i.status === 'uploading' || i.status === 'paused');
  }
}

/** The queued uploads to start now so that at most `parallel` run, in the order they were added. */
export function toStart(items: UploadItem[], parallel: number = PARALLEL_UPLOADS): UploadItem[] {
  const running = items.filter((i) => i.status === 'uploading').length;
  return items.filter((i) => i.status === 'queued').slice(0, Math.max(0, parallel - running));
}

/** Share of the file sent, in [0, 1]; an empty file is complete once done. */
export function progressOf(item: UploadItem): number {
  if (item.total === 0) return item.status === 'done' ? 1 : 0;
  return Math.min(1, item.loaded / item.total);
}
