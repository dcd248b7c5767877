import { requestJson, requestVoid, withQuery } from './client';
import type { JobKind, RenderedTemplate, SaveTemplate, Template, TemplateSummary, TemplateVersion } from './types';

const enc = encodeURIComponent;

/** Templates the caller may use: built-in, public, shared with one of their accounts, and their own. */
export function listTemplates(kind?: JobKind | '', signal?: AbortSignal): Promise<{ items: TemplateSummary[] }> {
  return requestJson<{ items: TemplateSummary[] }>(withQuery('/templates', { kind }), { signal });
}

export function getTemplate(id: string, version?: number, signal?: AbortSignal): Promise<Template> {
  return requestJson<Template>(withQuery(`/templates/${enc(id)}`, { version }), { signal });
}

export function listTemplateVersions(id: string, signal?: AbortSignal): Promise<{ items: TemplateVersion[] }> {
  return requestJson<{ items: TemplateVersion[] }>(`/templates/${enc(id)}/versions`, { signal });
}

export function createTemplate(body: SaveTemplate): Promise<Template> {
  return requestJson<Template>('/templates', { method: 'POST', body });
}

/** Saves a new version of the template. */
export function updateTemplate(id: string, body: SaveTemplate): Promise<Template> {
  return requestJson<Template>(`/templates/${enc(id)}`, { method: 'PUT', body });
}

export function deleteTemplate(id: string): Promise<void> {
  return requestVoid(`/templates/${enc(id)}`, { method: 'DELETE' });
}

/** The job spec the template gives with these values (400 InvalidParameters with per-parameter errors). */
export function renderTemplate(id: string, parameters: Record<string, string>, version?: number): Promise<RenderedTemplate> {
  return requestJson<RenderedTemplate>(`/templates/${enc(id)}/render`, {
    method: 'POST',
    body: { version, parameters },
  });
}
