import { requestJson } from './client';
import type { Build, BuildPage, CreateBuild } from './types';

const enc = encodeURIComponent;

/** One's builds, newest first; `all` (platform admins) lists everyone's. */
export function listImageBuilds(f: { all?: boolean; limit?: number }, signal?: AbortSignal): Promise<BuildPage> {
  const p = new URLSearchParams();
  if (f.all) p.set('all', 'true');
  if (f.limit !== undefined) p.set('limit', String(f.limit));
  const s = p.toString();
  return requestJson<BuildPage>(`/images/builds${s ? `?${s}` : ''}`, { signal });
}

export function getImageBuild(id: string, signal?: AbortSignal): Promise<Build> {
  return requestJson<Build>(`/images/builds/${enc(id)}`, { signal });
}

/** Starts a build in the current account (as a job there). */
export function createImageBuild(body: CreateBuild): Promise<Build> {
  return requestJson<Build>('/images/builds', { method: 'POST', body });
}

/** Stops a build (its job). */
export function stopImageBuild(id: string): Promise<Build> {
  return requestJson<Build>(`/images/builds/${enc(id)}/stop`, { method: 'POST' });
}
