import { requestJson, withQuery } from './client';
import type { DryRunResult, JobDetail, JobState, JobSummary, Page, SubmitJob } from './types';

const enc = encodeURIComponent;

export interface JobListParams {
  account: string;
  state?: JobState | '';
  cursor?: string | null;
  limit?: number;
}

export function listJobs(params: JobListParams, signal?: AbortSignal): Promise<Page<JobSummary>> {
  return requestJson<Page<JobSummary>>(withQuery('/jobs', { ...params }), { signal });
}

export function getJob(id: string, signal?: AbortSignal): Promise<JobDetail> {
  return requestJson<JobDetail>(`/jobs/${enc(id)}`, { signal });
}

/** Creates the job (201). Field errors come back as 400, admission refusals as 422 JobRejected. */
export function submitJob(body: SubmitJob): Promise<JobSummary> {
  return requestJson<JobSummary>('/jobs', { method: 'POST', body });
}

/** Asks what admission would decide for the job now and which objects it would become; creates nothing. */
export function dryRunJob(body: SubmitJob): Promise<DryRunResult> {
  return requestJson<DryRunResult>(withQuery('/jobs', { dryRun: 'true' }), { method: 'POST', body });
}

export function stopJob(id: string): Promise<JobSummary> {
  return requestJson<JobSummary>(`/jobs/${enc(id)}/stop`, { method: 'POST' });
}
