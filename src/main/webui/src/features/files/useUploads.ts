import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { makeFolder, startUpload, type UploadHandle } from '../../api/files';
import { isApiError } from '../../api/errors';
import { randomUuid } from '../../lib/uuid';
import { foldersFor, join } from '../../lib/filePaths';
import { fileKeys } from './queries';
import { toStart, uploadReducer, type UploadError } from './uploadQueue';

/** A file to upload and where it goes below the folder it is dropped into ("a/b.txt" for one inside a folder). */
export interface PickedFile {
  file: File;
  relativePath: string;
}

function errorOf(e: unknown, fallback: string): UploadError {
  if (isApiError(e)) return { message: e.detail ?? e.title, reasons: e.problemReasons, conflict: e.status === 409 };
  return { message: e instanceof Error && e.message ? e.message : fallback, reasons: [], conflict: false };
}

/**
 * Runs the upload queue: starts queued uploads (a few at a time), reports progress into it, and refreshes the
 * folder and the space's usage when one finishes. Folders of a dropped tree are made before its files are queued.
 */
export function useUploads(unexpected: string) {
  const [items, dispatch] = useReducer(uploadReducer, []);
  const handles = useRef(new Map<string, UploadHandle>());
  const client = useQueryClient();

  useEffect(() => {
    for (const item of toStart(items)) {
      if (handles.current.has(item.id)) continue;
      dispatch({ type: 'start', id: item.id });
      const handle = startUpload(item.space, item.path, item.file, {
        overwrite: item.overwrite,
        onProgress: (loaded) => dispatch({ type: 'progress', id: item.id, loaded }),
      });
      handles.current.set(item.id, handle);
      handle.done
        .then(() => {
          dispatch({ type: 'done', id: item.id });
          void client.invalidateQueries({ queryKey: fileKeys.folders(item.space) });
          void client.invalidateQueries({ queryKey: fileKeys.spaces() });
        })
        .catch((e: unknown) => {
          if (e instanceof DOMException && e.name === 'AbortError') return;
          dispatch({ type: 'fail', id: item.id, error: errorOf(e, unexpected) });
        })
        .finally(() => {
          if (handles.current.get(item.id) === handle) handles.current.delete(item.id);
        });
    }
  }, [items, client, unexpected]);

  useEffect(() => {
    const running = handles.current;
    // Leaving the page pauses a resumable upload (it can go on later, also after a reload) and cancels a plain one.
    return () => running.forEach((h) => (h.pause ? h.pause() : h.cancel()));
  }, []);

  /** Makes the folders the files need (an existing one is fine), then queues the files. */
  const add = useCallback(
    async (space: string, folder: string, picked: PickedFile[]) => {
      for (const dir of foldersFor(
        folder,
        picked.map((p) => p.relativePath),
      )) {
        try {
          await makeFolder(space, dir);
        } catch (e) {
          if (!(isApiError(e) && e.code === 'AlreadyExists')) throw e;
        }
      }
      if (picked.some((p) => p.relativePath.includes('/'))) {
        void client.invalidateQueries({ queryKey: fileKeys.folders(space) });
      }
      dispatch({
        type: 'add',
        items: picked.map((p) => ({ id: randomUuid(), space, path: join(folder, p.relativePath), file: p.file })),
      });
    },
    [client],
  );

  const cancel = useCallback((id: string) => {
    // Forget the handle now: a retry may start the same upload again before the aborted one has settled.
    handles.current.get(id)?.cancel();
    handles.current.delete(id);
    dispatch({ type: 'cancel', id });
  }, []);

  const pause = useCallback((id: string) => {
    const h = handles.current.get(id);
    if (!h?.pause) return;
    h.pause();
    dispatch({ type: 'pause', id });
  }, []);

  const resume = useCallback((id: string) => {
    const h = handles.current.get(id);
    if (!h?.resume) return;
    dispatch({ type: 'resume', id });
    h.resume();
  }, []);

  const retry = useCallback((id: string, overwrite?: boolean) => dispatch({ type: 'retry', id, overwrite }), []);
  const clear = useCallback(() => dispatch({ type: 'clear' }), []);

  return { items, add, cancel, pause, resume, retry, clear };
}
