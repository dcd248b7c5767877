import { isApiError } from '../../api/errors';
import type { JobSummary } from '../../api/types';

/** Whether a job serves a web app of its own that the viewer may open: their running notebook, VS Code or TensorBoard. */
export function opensApp(job: Pick<JobSummary, 'kind' | 'state' | 'owner'>, viewer: string): boolean {
  return (job.kind === 'jupyter' || job.kind === 'webide' || job.kind === 'tensorboard') && job.state === 'Running' && job.owner === viewer;
}

/** The message for a refused open, by the problem's code. */
export function openErrorMessage(error: unknown, t: (k: string) => string): string {
  if (isApiError(error)) {
    if (error.code === 'AppNotReady') return t('jobs.open.notReady');
    if (error.code === 'NotJobOwner') return t('jobs.open.notOwner');
    if (error.code === 'JobNotRunning') return t('jobs.open.notRunning');
    return error.detail ?? error.message;
  }
  return t('jobs.open.failed');
}

/**
 * Opens a new tab at the click (browsers block pop-ups opened later) and returns what to do once the app's one-time
 * URL arrives: point the tab at it (or this window, when pop-ups are blocked), or close the tab when it failed.
 */
export function tabAtTheClick(): { go: (url: string) => void; close: () => void } {
  const tab = window.open('about:blank', '_blank');
  return {
    go: (url) => {
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        window.location.assign(url);
      }
    },
    close: () => tab?.close(),
  };
}
