import { requestJson, requestVoid } from './client';
import type { CreateImage, Image, ImagePage, ImageVisibility, UpdateImage } from './types';

const enc = encodeURIComponent;

/** List filters; absent ones do not filter. */
export interface ImageFilter {
  q?: string;
  kind?: string;
  vendor?: string;
  accelerator?: string;
  visibility?: ImageVisibility;
  mine?: boolean;
  cursor?: string;
  limit?: number;
}

export function imageQuery(f: ImageFilter): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v !== undefined && v !== '' && v !== false) p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function listImages(f: ImageFilter, signal?: AbortSignal): Promise<ImagePage> {
  return requestJson<ImagePage>(`/images${imageQuery(f)}`, { signal });
}

export function getImage(id: string, signal?: AbortSignal): Promise<Image> {
  return requestJson<Image>(`/images/${enc(id)}`, { signal });
}

export function createImage(body: CreateImage): Promise<Image> {
  return requestJson<Image>('/images', { method: 'POST', body });
}

export function updateImage(id: string, body: UpdateImage): Promise<Image> {
  return requestJson<Image>(`/images/${enc(id)}`, { method: 'PUT', body });
}

/** Asks the registry about each tag and records the answers (the image with its new checks). */
export function validateImage(id: string): Promise<Image> {
  return requestJson<Image>(`/images/${enc(id)}/validate`, { method: 'POST' });
}

export function deleteImage(id: string): Promise<void> {
  return requestVoid(`/images/${enc(id)}`, { method: 'DELETE' });
}
