/** Wire types of the Crater REST API (v1): Templates. */

import type { JobKind, Reason, SubmitJob } from './jobs';

export type TemplateVisibility = 'private' | 'account' | 'public';
/** `arguments`: a command line, split into words where its placeholder stands alone in a list. */
export type ParameterType = 'string' | 'text' | 'integer' | 'quantity' | 'duration' | 'model' | 'choice' | 'boolean' | 'arguments';

/**
 * A value a template asks for. The template's spec refers to it as `${name}`; a string that is exactly
 * `${name}` takes the typed value (a number for `integer`).
 */
export interface TemplateParameter {
  name: string;
  label: string;
  description: string | null;
  type: ParameterType;
  /** Values travel as strings ("2", "16Gi", "true"). */
  default: string | null;
  required: boolean;
  /** The allowed values of a `choice`. */
  options: string[] | null;
  /** Label and description per language (`en`, `zh-CN`); built-in templates carry both. */
  i18n?: Record<string, { label: string | null; description: string | null }> | null;
}

export interface TemplateSummary {
  id: string;
  name: string;
  description: string;
  kind: JobKind;
  builtin: boolean;
  visibility: TemplateVisibility;
  /** The account it is shared with (visibility `account`). */
  account: string | null;
  /** Username of its author; null for built-in templates. */
  owner: string | null;
  version: number;
  updatedAt: string;
  /** Name and description per language (`en`, `zh-CN`); built-in templates carry both. */
  i18n?: Record<string, { name: string | null; description: string | null }> | null;
}

export interface Template extends TemplateSummary {
  parameters: TemplateParameter[];
  /** A job spec (SubmitJob fields) with `${name}` placeholders. */
  spec: Record<string, unknown>;
  /** Whether the caller may change or delete it (its author, or a platform admin for shared ones). */
  canEdit: boolean;
}

export interface TemplateVersion {
  version: number;
  createdAt: string;
  createdBy: string | null;
}

export interface SaveTemplate {
  name: string;
  description: string;
  visibility: TemplateVisibility;
  account?: string | null;
  parameters: TemplateParameter[];
  spec: Record<string, unknown>;
}

/** Saves a job's spec as a new template (no parameters). */
export interface SaveJobAsTemplate {
  name: string;
  description: string;
  visibility: TemplateVisibility;
  account?: string | null;
}

/** A template rendered with parameter values: the job spec, also as YAML for the advanced view. */
export interface RenderedTemplate {
  spec: SubmitJob;
  yaml: string;
}

export type AdmissionDecision = 'ADMIT' | 'QUEUE' | 'REJECT';

/** Answer to a dry run: what admission would decide now; nothing is created. */
export interface DryRunResult {
  decision: AdmissionDecision;
  reasons: Reason[];
  /** Resources the job would borrow beyond the account's guarantee. */
  borrowing: string[];
  /** The objects the job would become, as YAML. */
  manifests: string;
}
