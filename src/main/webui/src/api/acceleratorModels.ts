import { requestJson } from './client';
import type { AcceleratorModel, AcceleratorModelUpdate, ItemList } from './types';

export function listAcceleratorModels(signal?: AbortSignal): Promise<ItemList<AcceleratorModel>> {
  return requestJson<ItemList<AcceleratorModel>>('/accelerator-models', { signal });
}

export function updateAcceleratorModel(key: string, body: AcceleratorModelUpdate): Promise<AcceleratorModel> {
  return requestJson<AcceleratorModel>(`/accelerator-models/${encodeURIComponent(key)}`, { method: 'PATCH', body });
}
