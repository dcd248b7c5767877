import { requestJson } from './client';

/** A one-time URL into a job's app on its own origin (docs/interactive.md). */
export interface OpenedApp {
  url: string;
  origin: string;
  expiresAt: string;
}

/** Asks for the job's app (JupyterLab, VS Code) or, with a port, any port of the job under /port/<n>/. */
export function openApp(jobId: string, port?: number): Promise<OpenedApp> {
  const query = port === undefined ? '' : `?port=${port}`;
  return requestJson<OpenedApp>(`/jobs/${encodeURIComponent(jobId)}/open${query}`, { method: 'POST' });
}
