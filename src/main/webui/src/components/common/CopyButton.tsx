import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { btnSecondary } from './ui';

type CopyState = 'idle' | 'copied' | 'selected' | 'failed';

/** Selects the text of `el` so the user can copy it by hand; false when the page cannot select. */
function selectText(el: HTMLElement): boolean {
  const selection = window.getSelection();
  if (!selection) return false;
  selection.selectAllChildren(el);
  return true;
}

/**
 * Copies `text` to the clipboard and confirms for two seconds. Where the clipboard is unavailable (a page
 * served over plain HTTP has none) or refuses, it selects `selectOnFailure`'s text instead and says so.
 */
export function CopyButton({
  text,
  testId,
  selectOnFailure,
}: {
  text: string;
  testId?: string;
  selectOnFailure?: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return undefined;
    const id = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(id);
  }, [state]);

  const copy = async () => {
    try {
      // Absent outside secure contexts even though the DOM types say otherwise.
      const clipboard = navigator.clipboard as Clipboard | undefined;
      if (!clipboard) throw new Error('no clipboard');
      await clipboard.writeText(text);
      setState('copied');
    } catch {
      const el = selectOnFailure?.current;
      setState(el && selectText(el) ? 'selected' : 'failed');
    }
  };

  const label = {
    idle: t('common.copy'),
    copied: t('common.copied'),
    selected: t('common.copySelected'),
    failed: t('common.copyFailed'),
  }[state];
  return (
    <button type="button" data-testid={testId} aria-live="polite" className={btnSecondary} onClick={() => void copy()}>
      {label}
    </button>
  );
}

/** One command to run, in a monospace box with a copy button (which selects the line where it cannot copy). */
export function CommandBox({ value, testId }: { value: string; testId?: string }) {
  const ref = useRef<HTMLElement>(null);
  return (
    <div className="flex items-start gap-2">
      <code
        ref={ref}
        data-testid={testId}
        className="min-w-0 flex-1 select-all break-all rounded-md bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100"
      >
        {value}
      </code>
      <CopyButton text={value} testId={testId === undefined ? undefined : `${testId}-copy`} selectOnFailure={ref} />
    </div>
  );
}

/** A secret shown once: monospace value, copy button and a warning that it cannot be shown again. */
export function SecretBox({ value, warning, testId }: { value: string; warning: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-3">
      <p className="mb-2 text-sm text-amber-900">{warning}</p>
      <div className="flex items-center gap-2">
        <code
          data-testid={testId}
          className="min-w-0 flex-1 select-all break-all rounded bg-white px-2 py-1.5 font-mono text-sm text-slate-900 ring-1 ring-amber-200"
        >
          {value}
        </code>
        <CopyButton text={value} />
      </div>
    </div>
  );
}
