import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { btnPrimary, btnSecondary, btnSmall } from '../../components/common/ui';
import { normalise, parent } from '../../lib/filePaths';
import { FileError } from './FileError';
import { folderQuery } from './queries';

interface FolderBrowserProps {
  /** The space as the file API names it (`user`, `account:<slug>`, `public`). */
  space: string;
  /** Where browsing starts: the path typed so far, or "/". */
  start: string;
  onChoose: (path: string) => void;
  onClose: () => void;
}

/**
 * Picks a folder of a space by walking its folders through the file API's listing (the Files page's query): up, into
 * a folder, "choose this folder". Only folders are offered; files and links are counted, not shown.
 */
export function FolderBrowser({ space, start, onChoose, onClose }: FolderBrowserProps) {
  const { t } = useTranslation();
  const [path, setPath] = useState(() => (start.trim().startsWith('/') ? normalise(start) : '/'));
  const listing = useInfiniteQuery(folderQuery(space, path));
  const folders = (listing.data?.pages ?? []).flatMap((p) => p.items).filter((e) => e.type === 'folder');
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="folder-browser">
      <div className="mb-2 flex items-center gap-2">
        <button
          type="button"
          className={`${btnSecondary} ${btnSmall}`}
          onClick={() => setPath(parent(path))}
          disabled={path === '/'}
          data-testid="folder-browser-up"
          aria-label={t('files.browser.up')}
        >
          ..
        </button>
        <span className="truncate font-mono text-xs text-slate-700" data-testid="folder-browser-path">
          {space}:{path}
        </span>
      </div>
      {listing.isPending ? (
        <p role="status" className="text-xs text-slate-500" data-testid="folder-browser-loading">
          {t('files.browser.loading')}
        </p>
      ) : listing.isError ? (
        <FileError error={listing.error} testId="folder-browser-error" />
      ) : folders.length === 0 ? (
        <p className="text-xs text-slate-500" data-testid="folder-browser-empty">
          {t('files.browser.empty')}
        </p>
      ) : (
        <ul className="max-h-48 overflow-y-auto rounded border border-slate-200 bg-white">
          {folders.map((f) => (
            <li key={f.path}>
              <button
                type="button"
                className="w-full px-2 py-1 text-left hover:bg-indigo-50"
                onClick={() => setPath(normalise(f.path))}
                data-testid="folder-browser-entry"
              >
                {f.name}/
              </button>
            </li>
          ))}
        </ul>
      )}
      {listing.hasNextPage && (
        <button
          type="button"
          className={`${btnSecondary} ${btnSmall} mt-2`}
          onClick={() => void listing.fetchNextPage()}
          disabled={listing.isFetchingNextPage}
        >
          {t('files.browser.more')}
        </button>
      )}
      <div className="mt-2 flex justify-end gap-2">
        <button type="button" className={`${btnSecondary} ${btnSmall}`} onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className={`${btnPrimary} ${btnSmall}`}
          onClick={() => onChoose(path)}
          disabled={listing.isError}
          data-testid="folder-browser-choose"
        >
          {t('files.browser.choose')}
        </button>
      </div>
    </div>
  );
}
