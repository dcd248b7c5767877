/** Wire types of the Crater REST API (v1): Accelerator catalogue. */

export interface AcceleratorModel {
  key: string;
  displayName: string;
  vendor: string;
  resource: string;
  /** The node label telling the model apart; null when the resource alone names it (a MIG profile, hygon.com/dcu). */
  labelKey: string | null;
  labelValue: string | null;
  restricted: boolean;
  /** Memory of one card, in MiB; null when not known. */
  memoryMiB: number | null;
  /** For a shared-GPU model (HAMi): the resource each pod asks memoryMiB of per device. */
  memoryResource: string | null;
  retired: boolean;
  retiredAt: string | null;
}

export interface AcceleratorModelUpdate {
  displayName?: string;
  vendor?: string;
  restricted?: boolean;
  memoryMiB?: number;
}

export interface NewAcceleratorModel {
  key: string;
  resource: string;
  labelKey?: string | null;
  labelValue?: string | null;
  displayName: string;
  vendor: string;
  memoryMiB?: number | null;
  memoryResource?: string | null;
  restricted?: boolean;
}

/** A model the nodes publish that the catalogue lacks. */
export interface ModelProposal {
  key: string;
  resource: string;
  labelKey: string | null;
  labelValue: string | null;
  displayName: string;
  vendor: string;
  memoryMiB: number | null;
  memoryResource: string | null;
  nodes: string[];
  /** Devices over all those nodes. */
  count: number;
}

export interface AcceptProposal {
  key?: string;
  displayName?: string;
  vendor?: string;
  restricted?: boolean;
}
