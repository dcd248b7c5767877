import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isOver, terminalSocketUrl, type TerminalStatus } from '../../api/terminal';
import type { ConnectPod } from '../../api/types';
import { LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, btnSmall } from '../../components/common/ui';
import type { Translate } from './reasons';
import { openTerminalSession, type TerminalSession } from './terminalSession';
import type { TerminalScreen } from './XtermView';

// xterm.js is loaded only when a terminal is opened.
const XtermView = lazy(() => import('./XtermView'));

/** How long a copy/paste note stays. */
const NOTE_MS = 2500;

type ClipNote = 'copied' | 'nothingSelected' | 'copyFailed' | 'pasteFailed';

/** The status line: what the session is doing, in words. */
function terminalStatusText(status: TerminalStatus | null, pod: string, t: Translate): string {
  if (status === null) return t('jobs.terminal.status.idle');
  switch (status.kind) {
    case 'connecting':
      return t('jobs.terminal.status.connecting', { pod });
    case 'connected':
      return t('jobs.terminal.status.connected', { pod });
    case 'ended':
      return status.code === null
        ? t('jobs.terminal.status.endedNoCode', { pod })
        : t('jobs.terminal.status.ended', { pod, code: status.code });
    case 'error':
      return status.reason === 'server'
        ? t('jobs.terminal.status.server', { message: status.message ?? '' })
        : t(`jobs.terminal.status.${status.reason}`, { pod });
  }
}

const statusColour: Record<string, string> = {
  idle: 'text-slate-500',
  connecting: 'text-slate-500',
  connected: 'text-emerald-700',
  ended: 'text-slate-700',
  error: 'text-rose-700',
};

/**
 * A shell in one of the job's running pods, in the page: opened on request, over the terminal WebSocket; the
 * socket closes when the component goes (another tab, another page) or another pod is picked.
 */
export function JobTerminal({ pods }: { pods: ConnectPod[] }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState('');
  const pod = pods.find((p) => p.pod === choice) ?? pods[0];
  // 0: not opened yet; each reconnect opens a new session.
  const [attempt, setAttempt] = useState(0);
  const [screen, setScreen] = useState<TerminalScreen | null>(null);
  const [status, setStatus] = useState<TerminalStatus | null>(null);
  const [note, setNote] = useState<ClipNote | null>(null);
  const session = useRef<TerminalSession | null>(null);
  const url = pod ? terminalSocketUrl(pod.terminal, window.location) : null;

  useEffect(() => {
    if (attempt === 0 || screen === null || url === null) return undefined;
    screen.reset();
    const opened = openTerminalSession({
      url,
      size: screen.size(),
      onOutput: (data) => screen.write(data),
      onStatus: (s) => {
        setStatus(s);
        if (s.kind === 'connected') screen.focus();
      },
    });
    session.current = opened;
    return () => {
      opened.close();
      if (session.current === opened) session.current = null;
    };
  }, [attempt, screen, url]);

  useEffect(() => {
    if (note === null) return undefined;
    const id = setTimeout(() => setNote(null), NOTE_MS);
    return () => clearTimeout(id);
  }, [note]);

  const copy = useCallback(() => {
    const text = screen?.selection() ?? '';
    if (text === '') {
      setNote('nothingSelected');
      return;
    }
    navigator.clipboard.writeText(text).then(
      () => setNote('copied'),
      () => setNote('copyFailed'),
    );
  }, [screen]);

  const paste = useCallback(() => {
    if (typeof navigator.clipboard?.readText !== 'function') {
      setNote('pasteFailed');
      return;
    }
    navigator.clipboard.readText().then(
      (text) => {
        screen?.paste(text);
        screen?.focus();
      },
      () => setNote('pasteFailed'),
    );
  }, [screen]);

  if (!pod) return null;
  const opened = attempt > 0;
  const kind = status?.kind ?? 'idle';
  const over = status !== null && isOver(status);

  return (
    <div data-testid="job-terminal" data-status={kind} data-pod={pod.pod} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <div className="flex flex-wrap items-center gap-3">
          {pods.length > 1 && (
            <label className="inline-flex items-center gap-2 text-slate-600">
              {t('jobs.terminal.pod')}
              <select
                data-testid="job-terminal-pod"
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
                value={pod.pod}
                onChange={(e) => setChoice(e.target.value)}
              >
                {pods.map((p) => (
                  <option key={p.pod} value={p.pod}>
                    {p.pod}
                  </option>
                ))}
              </select>
            </label>
          )}
          <span data-testid="job-terminal-status" data-status={kind} role="status" className={statusColour[kind]}>
            {terminalStatusText(status, pod.pod, t)}
          </span>
        </div>
        {opened && (
          <div className="flex flex-wrap items-center gap-2">
            {note !== null && (
              <span data-testid="job-terminal-note" className="text-xs text-slate-500">
                {t(`jobs.terminal.${note}`)}
              </span>
            )}
            <button type="button" data-testid="job-terminal-copy" className={btnSmall} disabled={screen === null} onClick={copy}>
              {t('jobs.terminal.copy')}
            </button>
            <button
              type="button"
              data-testid="job-terminal-paste"
              className={btnSmall}
              disabled={screen === null || kind !== 'connected'}
              onClick={paste}
            >
              {t('jobs.terminal.paste')}
            </button>
            {over && (
              <button type="button" data-testid="job-terminal-reconnect" className={btnSecondary} onClick={() => setAttempt((n) => n + 1)}>
                {t('jobs.terminal.reconnect')}
              </button>
            )}
          </div>
        )}
      </div>
      {opened ? (
        <>
          <Suspense fallback={<LoadingState label={t('jobs.terminal.loading')} />}>
            <XtermView
              label={t('jobs.terminal.screen', { pod: pod.pod })}
              onReady={setScreen}
              onInput={(data) => session.current?.input(data)}
              onBinary={(data) => session.current?.binary(data)}
              onResize={(cols, rows) => session.current?.resize(cols, rows)}
              onCopyKey={copy}
              onPasteKey={paste}
            />
          </Suspense>
          <p className="text-xs text-slate-500">{t('jobs.terminal.keys')}</p>
        </>
      ) : (
        <div className="flex flex-col items-start gap-2 rounded-md border border-dashed border-slate-300 p-4">
          <p className="text-sm text-slate-600">{t('jobs.terminal.openHint', { pod: pod.pod })}</p>
          <button type="button" data-testid="job-terminal-open" className={btnPrimary} onClick={() => setAttempt(1)}>
            {t('jobs.terminal.open')}
          </button>
        </div>
      )}
    </div>
  );
}
