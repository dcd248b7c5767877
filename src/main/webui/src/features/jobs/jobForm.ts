import { mountLines, parseMountLines } from '../assets/assetForm';
import type { JobKind, JobPriority, SubmitJob } from '../../api/types';
import { JOB_LIMITS, MAX_JOB_NAME } from '../../lib/limits';
import { parseCount, parseCpu, parseDuration, parseMemoryGiB, quantityToField, type Parsed, type UnitProblem } from '../../lib/units';
import { formatCommandLine, parseCommandLine } from './commandLine';
import { envValueText, parseEnvLines, type EnvLineError } from './envLines';
import { ANY_NODE, isNodesField, nodeTargetsBody, nodeTargetsFromSpec, nodeTargetsProblem, type NodeTargetsForm } from './nodeTargets';

export const JOB_KINDS: readonly JobKind[] = ['custom', 'pytorch', 'jupyter', 'webide', 'inference'];
export const JOB_PRIORITIES: readonly JobPriority[] = ['low', 'normal', 'high'];

/** Kinds that start their own server (JupyterLab, code-server): no command, a default image. */
export function isInteractiveKind(kind: JobKind): boolean {
  return kind === 'jupyter' || kind === 'webide';
}

export function requiresImage(kind: JobKind): boolean {
  return kind === 'custom' || kind === 'pytorch' || kind === 'inference';
}

export function requiresCommand(kind: JobKind): boolean {
  return kind === 'custom' || kind === 'pytorch';
}

/** Placeholder of the image input: the default image for interactive kinds, an example for the others. */
export const IMAGE_PLACEHOLDERS: Record<JobKind, string> = {
  jupyter: 'quay.io/jupyter/pytorch-notebook:cuda12-2024-12-09',
  webide: 'codercom/code-server:4.96.2',
  custom: 'python:3.12',
  pytorch: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
  inference: 'vllm/vllm-openai:v0.6.4',
  tensorboard: 'tensorflow/tensorflow:2.17.0',
};

/** Placeholder of the command input per kind (interactive kinds have none). */
export const COMMAND_PLACEHOLDERS: Record<JobKind, string> = {
  jupyter: '',
  webide: '',
  custom: 'python train.py --epochs 10',
  pytorch: 'python train.py --epochs 10',
  inference: 'vllm serve /models/llama --port 8000',
  tensorboard: '',
};

/** The new-job form as typed: every input is a string, "" means "not given" (server default). */
export interface JobFormValues {
  kind: JobKind;
  name: string;
  image: string;
  /** One line, split like a shell would (see parseCommandLine). */
  command: string;
  /** KEY=VALUE lines. */
  env: string;
  /** An absolute path inside the container; "" for the image's own. */
  workingDir: string;
  cpu: string;
  memory: string;
  /** Catalogue key, or "" for no accelerator. */
  acceleratorModel: string;
  accelerators: string;
  sharedMemory: string;
  /** Extra pods beside the master (pytorch only). */
  workers: string;
  timeLimit: string;
  priority: JobPriority;
  /** Datasets and models, one a line: `dataset <name> <path>` or `model <name> <path>`. */
  mounts?: string;
  /** Any node, only these nodes, or never these (absent: any node). */
  nodes?: NodeTargetsForm;
}

export function defaultJobForm(kind: JobKind = 'custom'): JobFormValues {
  return {
    kind,
    name: '',
    image: '',
    command: '',
    env: '',
    mounts: '',
    workingDir: '',
    cpu: '1',
    memory: '4',
    acceleratorModel: '',
    accelerators: '1',
    sharedMemory: '',
    workers: '',
    timeLimit: '',
    priority: 'normal',
    nodes: ANY_NODE,
  };
}

/** The job form's amount fields, each parsed in the unit its label states (memory in GiB, time limit in hours). */
export const JOB_FIELD_PARSERS = {
  cpu: (text: string): Parsed => parseCpu(text, JOB_LIMITS.maxCpuMilli, 1),
  memory: (text: string): Parsed => parseMemoryGiB(text, JOB_LIMITS.maxMemoryBytes, JOB_LIMITS.minMemoryBytes),
  sharedMemory: (text: string): Parsed => parseMemoryGiB(text, JOB_LIMITS.maxMemoryBytes),
  accelerators: (text: string): Parsed => parseCount(text, JOB_LIMITS.maxAccelerators),
  workers: (text: string): Parsed => parseCount(text, JOB_LIMITS.maxWorkers, ''),
  // The server holds the kind's maximum (it depends on the account); the console checks only the form.
  timeLimit: (text: string): Parsed => parseDuration(text, 999_999 * 86_400),
} as const;

export interface BuiltJob {
  /** The POST body, or null when a field is invalid. */
  body: SubmitJob | null;
  /** Field (named like the server's field paths) → the problem (an i18n key and its values). */
  errors: Record<string, UnitProblem>;
  /** The bad KEY=VALUE lines, when `errors.env` is set. */
  envErrors: EnvLineError[];
}

/**
 * Checks the form and builds the SubmitJob body: trimmed strings, empty optional fields left out, the command
 * split into arguments, no accelerator fields when the model is "none", workers only for pytorch.
 */
export function buildSubmitJob(v: JobFormValues): BuiltJob {
  const errors: Record<string, UnitProblem> = {};
  const name = v.name.trim();
  if (name === '') errors.name = { key: 'jobs.form.nameRequired' };
  else if (name.length > MAX_JOB_NAME) errors.name = nameTooLong(name);

  const image = v.image.trim();
  if (image === '' && requiresImage(v.kind)) errors.image = { key: 'jobs.form.imageRequired' };
  else if (/\s/.test(image)) errors.image = { key: 'jobs.form.imageInvalid' };

  let command: string[] = [];
  if (!isInteractiveKind(v.kind)) {
    const parsed = parseCommandLine(v.command);
    if (!parsed.ok) errors.command = { key: 'jobs.form.commandUnterminated' };
    else if (parsed.args.length === 0 && requiresCommand(v.kind)) errors.command = { key: 'jobs.form.commandRequired' };
    else command = parsed.args;
  }

  const { env, errors: envErrors } = parseEnvLines(v.env);
  if (envErrors.length > 0) errors.env = { key: 'jobs.form.envInvalid' };
  const mounts = parseMountLines(v.mounts ?? '');
  const badMount = mounts.errors[0];
  if (badMount) errors.mounts = { key: 'assets.mounts.lineError', values: { line: badMount.line } };

  const workingDir = v.workingDir.trim();
  const workingDirProblem = checkWorkingDir(workingDir);
  if (workingDirProblem) errors.workingDir = workingDirProblem;

  /** The parsed field, or undefined when it is empty (server default) or wrong (recorded under `field`). */
  const amount = (field: string, text: string, parse: (t: string) => Parsed): (Parsed & { ok: true }) | undefined => {
    if (text.trim() === '') return undefined;
    const p = parse(text);
    if (p.ok) return p;
    errors[field] = p.problem;
    return undefined;
  };
  const cpu = amount('resources.cpu', v.cpu, JOB_FIELD_PARSERS.cpu)?.api;
  const memory = amount('resources.memory', v.memory, JOB_FIELD_PARSERS.memory)?.api;
  const sharedMemory = amount('resources.sharedMemory', v.sharedMemory, JOB_FIELD_PARSERS.sharedMemory)?.api;

  let accelerators: number | undefined;
  if (v.acceleratorModel !== '') {
    const p = JOB_FIELD_PARSERS.accelerators(v.accelerators);
    if (!p.ok) errors['resources.accelerators'] = p.problem;
    else if (p.value === 0) errors['resources.accelerators'] = { key: 'jobs.form.acceleratorsInvalid' };
    else accelerators = p.value;
  }

  const workers = v.kind === 'pytorch' ? amount('workers', v.workers, JOB_FIELD_PARSERS.workers)?.value : undefined;

  const timeLimit = amount('timeLimit', v.timeLimit, JOB_FIELD_PARSERS.timeLimit)?.api ?? '';

  const nodesProblem = v.nodes ? nodeTargetsProblem(v.nodes) : null;
  if (nodesProblem) errors.nodes = nodesProblem;

  if (Object.keys(errors).length > 0) return { body: null, errors, envErrors };

  const body: SubmitJob = { name, kind: v.kind, resources: {} };
  if (image !== '') body.image = image;
  if (command.length > 0) body.command = command;
  if (workingDir !== '') body.workingDir = workingDir;
  if (Object.keys(env).length > 0) body.env = env;
  if (mounts.mounts.length > 0) body.mounts = mounts.mounts;
  if (cpu !== undefined) body.resources.cpu = cpu;
  if (memory !== undefined) body.resources.memory = memory;
  if (accelerators !== undefined) {
    body.resources.acceleratorModel = v.acceleratorModel;
    body.resources.accelerators = accelerators;
  }
  if (sharedMemory !== undefined) body.resources.sharedMemory = sharedMemory;
  if (workers !== undefined) body.workers = workers;
  if (timeLimit !== '') body.timeLimit = timeLimit;
  const nodes = v.nodes ? nodeTargetsBody(v.nodes) : undefined;
  if (nodes) body.nodes = nodes;
  body.priority = v.priority;
  return { body, errors, envErrors };
}

/** The inputs of the spec form by server field path: their server errors show under them, not in the box. */
export const SPEC_FORM_FIELDS = new Set([
  'kind',
  'name',
  'image',
  'command',
  'env',
  'workingDir',
  'resources.cpu',
  'resources.memory',
  'resources.sharedMemory',
  'resources.acceleratorModel',
  'resources.accelerators',
  'workers',
  'timeLimit',
  'priority',
  'mounts',
  'nodes',
]);

/** Which form input shows a server field error: "env.FOO" → "env", "args" → "command", others as named. */
export function formFieldOf(serverField: string): string {
  if (serverField.startsWith('env.')) return 'env';
  if (serverField === 'args') return 'command';
  if (serverField.startsWith('mounts')) return 'mounts';
  if (isNodesField(serverField)) return 'nodes';
  return serverField;
}

/** The server's rule for a working directory: an absolute path of at most this many characters. */
export const MAX_WORKING_DIR = 1024;

/** A working directory the server would refuse (not absolute, or too long); null when fine or empty. */
export function checkWorkingDir(dir: string): UnitProblem | null {
  if (dir === '') return null;
  if (!dir.startsWith('/')) return { key: 'jobs.form.workingDirAbsolute' };
  if (dir.length > MAX_WORKING_DIR) return { key: 'units.tooLong', values: { max: MAX_WORKING_DIR, count: dir.length } };
  return null;
}

/** A name over the server's limit: refused with the limit and its length, never cut. */
export function nameTooLong(name: string): UnitProblem {
  return { key: 'units.tooLong', values: { max: MAX_JOB_NAME, count: name.length } };
}

export { MAX_JOB_NAME };
/** Added to the name of a cloned job. */
export const COPY_SUFFIX = ' (copy)';

/** The name of a copy: the original's with the suffix, the original shortened so that both fit. */
export function copyName(name: string, suffix: string = COPY_SUFFIX): string {
  const base = name
    .trim()
    .slice(0, Math.max(0, MAX_JOB_NAME - suffix.length))
    .trimEnd();
  return base + suffix;
}

/**
 * The form filled from a job's spec, to clone it: the name with the copy suffix, command and args as one
 * command line, env as KEY=VALUE lines, the working directory as it was, absent fields empty (so the
 * server's defaults apply again). A template reference and source job of the spec are not carried over (a
 * job from a template is cloned with the template's form: see templateClone). Tolerates nulls.
 */
export function jobFormFromSpec(spec: SubmitJob, suffix: string = COPY_SUFFIX): JobFormValues {
  const kind: JobKind = JOB_KINDS.includes(spec.kind) ? spec.kind : 'custom';
  const resources = spec.resources ?? {};
  const words = [...(spec.command ?? []), ...(spec.args ?? [])];
  const env = Object.entries(spec.env ?? {})
    .map(([k, v]) => `${k}=${envValueText(v)}`)
    .join('\n');
  const accelerators = resources.accelerators;
  const hasAccelerator = (resources.acceleratorModel ?? '') !== '' && (accelerators ?? 1) > 0;
  return {
    kind,
    name: copyName(spec.name ?? '', suffix),
    image: spec.image ?? '',
    command: isInteractiveKind(kind) ? '' : formatCommandLine(words),
    env,
    workingDir: spec.workingDir ?? '',
    cpu: resources.cpu ? quantityToField('cpu', resources.cpu) : '',
    memory: resources.memory ? quantityToField('memory', resources.memory) : '',
    acceleratorModel: hasAccelerator ? (resources.acceleratorModel ?? '') : '',
    accelerators: hasAccelerator && typeof accelerators === 'number' ? String(accelerators) : '1',
    sharedMemory: resources.sharedMemory ? quantityToField('memory', resources.sharedMemory) : '',
    workers: typeof spec.workers === 'number' ? String(spec.workers) : '',
    timeLimit: spec.timeLimit ?? '',
    priority: spec.priority && JOB_PRIORITIES.includes(spec.priority) ? spec.priority : 'normal',
    mounts: mountLines(spec.mounts),
    nodes: nodeTargetsFromSpec(spec.nodes),
  };
}

/** What the template form of a clone starts with: the original's template version, values, name, priority, directory. */
export interface TemplateClone {
  sourceJob: string;
  templateId: string;
  version: number | undefined;
  name: string;
  priority: JobPriority;
  /** The values the original was rendered with, each as the form types it ("2", "true"). */
  parameters: Record<string, string>;
  workingDir: string;
  /** The nodes the original named (the template's, or those given with it). */
  nodes: NodeTargetsForm;
}

/**
 * How to clone a job rendered from a template: its template reference with the values it was rendered with,
 * or null when the spec names none (a job typed in full, or a resubmission, which keeps its rendered spec).
 */
export function templateClone(spec: SubmitJob, sourceJob: string, suffix: string = COPY_SUFFIX): TemplateClone | null {
  const ref = spec.template;
  if (!ref || typeof ref.id !== 'string' || ref.id === '') return null;
  const parameters: Record<string, string> = {};
  for (const [k, v] of Object.entries((ref.parameters ?? {}) as Record<string, unknown>)) {
    if (v !== null && v !== undefined) parameters[k] = typeof v === 'string' ? v : String(v);
  }
  return {
    sourceJob,
    templateId: ref.id,
    version: typeof ref.version === 'number' ? ref.version : undefined,
    name: copyName(spec.name ?? '', suffix),
    priority: spec.priority && JOB_PRIORITIES.includes(spec.priority) ? spec.priority : 'normal',
    parameters,
    workingDir: spec.workingDir ?? '',
    nodes: nodeTargetsFromSpec(spec.nodes),
  };
}
