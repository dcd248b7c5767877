import type { AcceleratorModel, AcceleratorModelUpdate, NewAcceleratorModel } from '../../api/types';
import { isApiError } from '../../api/errors';
import { formatBytes } from '../../lib/units';

/** What a catalogue row edits; memory as typed, in MiB. */
export interface ModelDraft {
  displayName: string;
  vendor: string;
  restricted: boolean;
  memoryMiB: string;
}

export function draftOf(model: AcceleratorModel): ModelDraft {
  return {
    displayName: model.displayName,
    vendor: model.vendor,
    restricted: model.restricted,
    memoryMiB: model.memoryMiB === null ? '' : String(model.memoryMiB),
  };
}

/** A whole number of MiB as typed (blank: not given), or NaN when it is not one. */
export function mibOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^[0-9]{1,9}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** Only the fields that differ from the stored model. */
export function modelChanges(
  model: AcceleratorModel,
  draft: Pick<ModelDraft, 'displayName' | 'vendor' | 'restricted'> & Partial<ModelDraft>,
): AcceleratorModelUpdate {
  const patch: AcceleratorModelUpdate = {};
  if (draft.displayName.trim() !== model.displayName) patch.displayName = draft.displayName.trim();
  if (draft.vendor.trim() !== model.vendor) patch.vendor = draft.vendor.trim();
  if (draft.restricted !== model.restricted) patch.restricted = draft.restricted;
  if (draft.memoryMiB !== undefined) {
    const mib = mibOf(draft.memoryMiB);
    if (mib !== null && mib !== model.memoryMiB) patch.memoryMiB = mib;
  }
  return patch;
}

/** The add form's fields, all as typed. */
export interface NewModelDraft {
  key: string;
  resource: string;
  labelKey: string;
  labelValue: string;
  displayName: string;
  vendor: string;
  memoryMiB: string;
  memoryResource: string;
}

export const EMPTY_NEW_MODEL: NewModelDraft = {
  key: '',
  resource: '',
  labelKey: '',
  labelValue: '',
  displayName: '',
  vendor: '',
  memoryMiB: '',
  memoryResource: '',
};

/** The request body of the add form: blanks left out, so the server names what is missing. */
export function newModelBody(d: NewModelDraft): NewAcceleratorModel {
  const opt = (s: string) => (s.trim() === '' ? null : s.trim());
  const mib = mibOf(d.memoryMiB);
  return {
    key: d.key.trim(),
    resource: d.resource.trim(),
    labelKey: opt(d.labelKey),
    labelValue: opt(d.labelValue),
    displayName: d.displayName,
    vendor: d.vendor,
    // A value that is no whole number goes as 0, which the server refuses with its reason under the field.
    memoryMiB: mib === null ? null : Number.isNaN(mib) ? 0 : mib,
    memoryResource: opt(d.memoryResource),
  };
}

/** The uses a 409 ModelInUse names (jobs, quotas, ...), with their counts; empty for any other error. */
export function usesOf(error: unknown): { what: string; count: string }[] {
  if (!isApiError(error) || error.code !== 'ModelInUse') return [];
  return error.fieldErrors.map((f) => ({ what: f.field, count: f.message }));
}

/** How a model maps onto nodes: its resource and, if it has one, its label; a shared model's memory resource. */
export function mappingText(m: Pick<AcceleratorModel, 'resource' | 'labelKey' | 'labelValue' | 'memoryResource' | 'memoryMiB'>): string {
  const label = m.labelKey ? ` · ${m.labelKey}=${m.labelValue}` : '';
  const shared = m.memoryResource && m.memoryMiB !== null ? ` · ${m.memoryResource}=${m.memoryMiB} MiB` : '';
  return `${m.resource}${label}${shared}`;
}

/** Memory of one card, with its unit: "80 GiB"; a dash when not known. */
export function memoryText(mib: number | null): string {
  return mib === null ? '—' : formatBytes(mib * 1024 * 1024);
}
