import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { btnSecondary } from './ui';

/** Copies `text` to the clipboard and confirms for two seconds. */
export function CopyButton({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return undefined;
    const id = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(id);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button type="button" data-testid={testId} className={btnSecondary} onClick={() => void copy()}>
      {state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : t('common.copy')}
    </button>
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
