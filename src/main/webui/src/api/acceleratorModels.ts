import { requestJson } from './client';
import type { AcceleratorModel, AcceleratorModelUpdate, AcceptProposal, ItemList, ModelProposal, NewAcceleratorModel } from './types';

const path = (key: string) => `/accelerator-models/${encodeURIComponent(key)}`;

export function listAcceleratorModels(signal?: AbortSignal): Promise<ItemList<AcceleratorModel>> {
  return requestJson<ItemList<AcceleratorModel>>('/accelerator-models', { signal });
}

export function createAcceleratorModel(body: NewAcceleratorModel): Promise<AcceleratorModel> {
  return requestJson<AcceleratorModel>('/accelerator-models', { method: 'POST', body });
}

export function updateAcceleratorModel(key: string, body: AcceleratorModelUpdate): Promise<AcceleratorModel> {
  return requestJson<AcceleratorModel>(path(key), { method: 'PATCH', body });
}

export function retireAcceleratorModel(key: string, retired: boolean): Promise<AcceleratorModel> {
  return requestJson<AcceleratorModel>(`${path(key)}/${retired ? 'retire' : 'unretire'}`, { method: 'POST' });
}

export function deleteAcceleratorModel(key: string): Promise<void> {
  return requestJson<void>(path(key), { method: 'DELETE' });
}

export function listModelProposals(signal?: AbortSignal): Promise<ItemList<ModelProposal>> {
  return requestJson<ItemList<ModelProposal>>('/accelerator-models/proposals', { signal });
}

export function acceptModelProposal(key: string, body: AcceptProposal): Promise<AcceleratorModel> {
  return requestJson<AcceleratorModel>(`/accelerator-models/proposals/${encodeURIComponent(key)}/accept`, {
    method: 'POST',
    body,
  });
}
