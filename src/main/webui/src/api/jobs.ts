import { API_BASE, requestJson, requestText, requestVoid, withQuery } from './client';
import type {
  DryRunResult,
  GpuUtilisation,
  JobConnect,
  JobDetail,
  JobKind,
  JobState,
  JobSummary,
  Page,
  ResubmitJob,
  SaveJobAsTemplate,
  SubmitJob,
  SubmitTemplateJob,
  Template,
  Wait,
} from './types';

const enc = encodeURIComponent;

export interface JobListParams {
  /** '' = every account the caller may see. */
  account: string;
  /** Accelerator model the jobs ask for. */
  model?: string;
  state?: JobState | '';
  kind?: JobKind | '';
  /** Username of the jobs' owner. */
  owner?: string;
  /** Only the caller's own jobs. */
  mine?: boolean;
  /** ISO instants bounding the submission time. */
  since?: string;
  until?: string;
  /** '-created' (newest first, default) or 'created'. */
  sort?: '-created' | 'created';
  cursor?: string | null;
  limit?: number;
}

export function listJobs(params: JobListParams, signal?: AbortSignal): Promise<Page<JobSummary>> {
  const { mine, ...rest } = params;
  return requestJson<Page<JobSummary>>(withQuery('/jobs', { ...rest, mine: mine ? 'true' : undefined }), { signal });
}

export function getJob(id: string, signal?: AbortSignal): Promise<JobDetail> {
  return requestJson<JobDetail>(`/jobs/${enc(id)}`, { signal });
}

/** Creates the job (201). Field errors come back as 400, admission refusals as 422 JobRejected. */
export function submitJob(body: SubmitJob): Promise<JobSummary> {
  return requestJson<JobSummary>('/jobs', { method: 'POST', body });
}

/** Asks what admission would decide for the job now and which objects it would become; creates nothing. */
export function dryRunJob(body: SubmitJob, account?: string): Promise<DryRunResult> {
  return requestJson<DryRunResult>(withQuery('/jobs', { dryRun: 'true' }), { method: 'POST', body, account });
}

/** Creates a job from a template (201); the template's parameter errors come back as 400 InvalidParameters. */
export function submitTemplateJob(body: SubmitTemplateJob): Promise<JobSummary> {
  return requestJson<JobSummary>('/jobs', { method: 'POST', body });
}

/** Dry run of a job from a template: what admission would decide now; creates nothing. */
export function dryRunTemplateJob(body: SubmitTemplateJob, account?: string): Promise<DryRunResult> {
  return requestJson<DryRunResult>(withQuery('/jobs', { dryRun: 'true' }), { method: 'POST', body, account });
}

export function stopJob(id: string): Promise<JobSummary> {
  return requestJson<JobSummary>(`/jobs/${enc(id)}/stop`, { method: 'POST' });
}

/** Submits a spec written as YAML (the advanced view); malformed YAML comes back as 400 InvalidYaml. */
export function submitJobYaml(yaml: string, dryRun = false): Promise<JobSummary | DryRunResult> {
  return requestJson<JobSummary | DryRunResult>(withQuery('/jobs', { dryRun: dryRun ? 'true' : undefined }), {
    method: 'POST',
    body: yaml,
    contentType: 'application/yaml',
  });
}

/**
 * A new job with the same spec, linked to this one, admitted against the current quota. `body.changes` alters
 * fields of the spec; `body.replace` also stops this job while it still waits.
 */
export function resubmitJob(id: string, body?: ResubmitJob): Promise<JobSummary> {
  return requestJson<JobSummary>(`/jobs/${enc(id)}/resubmit`, body === undefined ? { method: 'POST' } : { method: 'POST', body });
}

/** Why the job waits: reasons, place in line, estimated start and what would make it start now. */
export function getJobWait(id: string, signal?: AbortSignal): Promise<Wait> {
  return requestJson<Wait>(`/jobs/${enc(id)}/wait`, { signal });
}

/** Deletes a finished job from lists (409 JobNotFinished while it runs). */
export function deleteJob(id: string): Promise<void> {
  return requestVoid(`/jobs/${enc(id)}`, { method: 'DELETE' });
}

/** The Kubernetes objects the job became (or would become), as YAML. */
export async function getJobManifests(id: string, signal?: AbortSignal): Promise<string> {
  const res = await requestJson<{ yaml: string }>(`/jobs/${enc(id)}/manifests`, { signal });
  return res.yaml;
}

export function saveJobAsTemplate(id: string, body: SaveJobAsTemplate): Promise<Template> {
  return requestJson<Template>(`/jobs/${enc(id)}/template`, { method: 'POST', body });
}

/** Which pod's logs, and how many of the last lines (the server's default when absent). */
export interface JobLogParams {
  /** Pod name; the job's main pod when absent. */
  pod?: string | null;
  tailLines?: number;
}

function jobLogsPath(id: string, params: JobLogParams): string {
  return withQuery(`/jobs/${enc(id)}/logs`, { pod: params.pod, tailLines: params.tailLines });
}

/** The last lines of a pod's log as text; served from the archive once the pods are gone (403 without log access). */
export function getJobLogs(id: string, params: JobLogParams, signal?: AbortSignal): Promise<string> {
  return requestText(jobLogsPath(id, params), { signal });
}

/** Absolute URL of the plain-text logs, for download links (the session cookie authenticates it). */
export function jobLogsUrl(id: string, params: JobLogParams): string {
  return API_BASE + jobLogsPath(id, params);
}

/** URL of the job's live GPU metrics (Server-Sent Events: window, sample, unavailable, end) for an EventSource. */
export function jobGpuMetricsStreamUrl(id: string): string {
  return API_BASE + `/jobs/${enc(id)}/gpu-metrics/stream`;
}

/** URL of the log stream (Server-Sent Events, one line per `message` event) for an EventSource. */
export function jobLogStreamUrl(id: string, pod?: string | null): string {
  return API_BASE + withQuery(`/jobs/${enc(id)}/logs/stream`, { pod });
}

/** The terminal path and the ssh command and config of each running pod, and whether the caller may use them. */
export function getJobConnect(id: string, signal?: AbortSignal): Promise<JobConnect> {
  return requestJson<JobConnect>(`/jobs/${enc(id)}/connect`, { signal });
}

/** Accelerator utilisation samples since `since` (ISO instant; default: the idle window) and the idle decision now. */
export function getJobGpuUtilisation(id: string, since?: string | null, signal?: AbortSignal): Promise<GpuUtilisation> {
  return requestJson<GpuUtilisation>(withQuery(`/jobs/${enc(id)}/gpu-utilisation`, { since }), { signal });
}
