import { requestJson, requestVoid } from './client';
import type { Asset, AssetKind, AssetPage, AssetVisibility, CreateAsset, UpdateAsset } from './types';

const enc = encodeURIComponent;

/** List filters; absent ones do not filter. */
export interface AssetFilter {
  kind?: AssetKind;
  tag?: string;
  q?: string;
  visibility?: AssetVisibility;
  account?: string;
  mine?: boolean;
  cursor?: string;
  limit?: number;
}

export function assetQuery(f: AssetFilter): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v !== undefined && v !== '' && v !== false) p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function listAssets(f: AssetFilter, signal?: AbortSignal): Promise<AssetPage> {
  return requestJson<AssetPage>(`/assets${assetQuery(f)}`, { signal });
}

export function getAsset(id: string, signal?: AbortSignal): Promise<Asset> {
  return requestJson<Asset>(`/assets/${enc(id)}`, { signal });
}

export function createAsset(body: CreateAsset): Promise<Asset> {
  return requestJson<Asset>('/assets', { method: 'POST', body });
}

export function updateAsset(id: string, body: UpdateAsset): Promise<Asset> {
  return requestJson<Asset>(`/assets/${enc(id)}`, { method: 'PUT', body });
}

export function refreshAsset(id: string): Promise<Asset> {
  return requestJson<Asset>(`/assets/${enc(id)}/refresh`, { method: 'POST' });
}

export function deleteAsset(id: string): Promise<void> {
  return requestVoid(`/assets/${enc(id)}`, { method: 'DELETE' });
}
