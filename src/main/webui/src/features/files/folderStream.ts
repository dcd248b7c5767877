import { useEffect, useRef, useState } from 'react';
import { folderStreamUrl } from '../../api/files';
import type { FileEntry } from '../../api/types';

/** Folders first, then by name in UTF-16 order: the order the server's pages use. */
export function compareEntries(a: FileEntry, b: FileEntry): number {
  const fa = a.type === 'folder' ? 0 : 1;
  const fb = b.type === 'folder' ? 0 : 1;
  if (fa !== fb) return fa - fb;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Entries whose name holds `text`, ignoring case; all of them when `text` is blank. */
export function filterEntries(entries: FileEntry[], text: string): FileEntry[] {
  const needle = text.trim().toLocaleLowerCase();
  if (needle === '') return entries;
  return entries.filter((e) => e.name.toLocaleLowerCase().includes(needle));
}

export interface FolderStream {
  /** What has come so far, in the pages' order. */
  entries: FileEntry[];
  /** The server sent `end`: every entry is there. */
  done: boolean;
  /** The stream broke before `end` (or this browser has no EventSource): read the folder page by page instead. */
  failed: boolean;
}

const IDLE: FolderStream = { entries: [], done: false, failed: false };

/** How often what has come is shown: a 100,000-entry folder is sorted a few times a second, not once per entry. */
export const FLUSH_MS = 150;

/**
 * Reads a whole folder from its event stream while `enabled`, so a large one fills the table as it comes instead of
 * page by page. Reads it again when `generation` changes (its first page was read again after a change); a folder
 * already shown stays as it is until the new reading is complete, so a refresh does not flicker. Once the stream has
 * failed for a folder it is not tried again for it: the page-by-page listing takes over.
 */
export function useFolderStream(space: string, path: string, enabled: boolean, generation: number): FolderStream {
  const key = `${space}\u0000${path}`;
  const [state, setState] = useState<FolderStream & { key: string }>({ ...IDLE, key });
  const failedFor = useRef<string | null>(null);
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    if (!enabled || failedFor.current === key) return;
    const fail = () => {
      failedFor.current = key;
      shownFor.current = null;
      setState({ ...IDLE, failed: true, key });
    };
    if (typeof EventSource === 'undefined') {
      fail();
      return;
    }
    const progressive = shownFor.current !== key;
    if (progressive) setState({ ...IDLE, key });
    let all: FileEntry[] = [];
    let pending: FileEntry[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let over = false;
    const flush = (done: boolean) => {
      timer = undefined;
      if (pending.length > 0) {
        all = all.concat(pending).sort(compareEntries);
        pending = [];
      }
      if (done) shownFor.current = key;
      setState({ entries: all, done, failed: false, key });
    };
    const source = new EventSource(folderStreamUrl(space, path));
    source.addEventListener('entry', (ev) => {
      pending.push(JSON.parse((ev as MessageEvent<string>).data) as FileEntry);
      if (progressive) timer ??= setTimeout(() => flush(false), FLUSH_MS);
    });
    source.addEventListener('end', () => {
      over = true;
      source.close();
      if (timer !== undefined) clearTimeout(timer);
      flush(true);
    });
    source.onerror = () => {
      if (over) return;
      over = true;
      source.close();
      if (timer !== undefined) clearTimeout(timer);
      fail();
    };
    return () => {
      over = true;
      source.close();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [space, path, key, enabled, generation]);
  if (!enabled || state.key !== key) return IDLE;
  return state;
}
