import type { AcceleratorModel, AcceleratorModelUpdate } from '../../api/types';

/** Only the fields that differ from the stored model. */
export function modelChanges(
  model: AcceleratorModel,
  draft: Pick<AcceleratorModel, 'displayName' | 'vendor' | 'restricted'>,
): AcceleratorModelUpdate {
  const patch: AcceleratorModelUpdate = {};
  if (draft.displayName.trim() !== model.displayName) patch.displayName = draft.displayName.trim();
  if (draft.vendor.trim() !== model.vendor) patch.vendor = draft.vendor.trim();
  if (draft.restricted !== model.restricted) patch.restricted = draft.restricted;
  return patch;
}
