/** Wire types of the Crater REST API (v1): Accelerator catalogue. */

export interface AcceleratorModel {
  key: string;
  displayName: string;
  vendor: string;
  resource: string;
  labelKey: string;
  labelValue: string;
  restricted: boolean;
}

export interface AcceleratorModelUpdate {
  displayName?: string;
  vendor?: string;
  restricted?: boolean;
}
