import { describe, expect, it } from 'vitest';
import type { SubmitJob } from '../../api/types';
import {
  buildSubmitJob,
  checkWorkingDir,
  copyName,
  defaultJobForm,
  formFieldOf,
  jobFormFromSpec,
  templateClone,
  type JobFormValues,
} from './jobForm';

const base: JobFormValues = {
  ...defaultJobForm('custom'),
  name: ' hello ',
  image: ' python:3.12 ',
  command: 'python -c print(1)',
  env: 'SIM_DURATION=3s',
  cpu: '1',
  memory: '1Gi',
};

describe('buildSubmitJob', () => {
  it('builds a custom job, leaving out the accelerator when the model is none', () => {
    const { body, errors } = buildSubmitJob({ ...base, accelerators: '4' });
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: 'hello',
      kind: 'custom',
      image: 'python:3.12',
      command: ['python', '-c', 'print(1)'],
      env: { SIM_DURATION: '3s' },
      resources: { cpu: '1', memory: '1Gi' },
      priority: 'normal',
    });
  });

  it('adds the accelerator, shared memory, workers, time limit and priority when given', () => {
    const { body } = buildSubmitJob({
      ...base,
      kind: 'pytorch',
      env: '',
      acceleratorModel: 'nvidia-a100-80gb',
      accelerators: '8',
      sharedMemory: '8Gi',
      workers: '3',
      timeLimit: '3d',
      priority: 'high',
    });
    expect(body).toEqual({
      name: 'hello',
      kind: 'pytorch',
      image: 'python:3.12',
      command: ['python', '-c', 'print(1)'],
      resources: { cpu: '1', memory: '1Gi', acceleratorModel: 'nvidia-a100-80gb', accelerators: 8, sharedMemory: '8Gi' },
      workers: 3,
      timeLimit: '3d',
      priority: 'high',
    });
  });

  it('sends no command for interactive kinds and no workers outside pytorch; empty optional fields are left out', () => {
    const { body } = buildSubmitJob({
      ...defaultJobForm('jupyter'),
      name: 'nb',
      command: 'ignored "',
      workers: '2',
      cpu: '',
      memory: ' ',
    });
    expect(body).toEqual({ name: 'nb', kind: 'jupyter', resources: {}, priority: 'normal' });
  });

  it('requires an image and a command where the kind needs them', () => {
    expect(buildSubmitJob({ ...base, image: '', command: '' }).errors).toEqual({
      image: { key: 'jobs.form.imageRequired' },
      command: { key: 'jobs.form.commandRequired' },
    });
    const inference = buildSubmitJob({ ...base, kind: 'inference', image: '', command: '' });
    expect(inference.errors).toEqual({ image: { key: 'jobs.form.imageRequired' } });
    expect(buildSubmitJob({ ...base, kind: 'inference', command: '' }).body?.command).toBeUndefined();
  });

  it('reports every invalid field with its server field name', () => {
    const built = buildSubmitJob({
      ...base,
      name: '  ',
      image: 'python 3',
      command: 'python -c "print(1)',
      env: 'HOME=/x',
      cpu: 'two',
      memory: '0',
      sharedMemory: '-1',
      acceleratorModel: 'nvidia-a100-80gb',
      accelerators: '0',
      kind: 'pytorch',
      workers: '1.5',
      timeLimit: '2 weeks',
    });
    expect(built.body).toBeNull();
    expect(built.errors).toEqual({
      name: { key: 'jobs.form.nameRequired' },
      image: { key: 'jobs.form.imageInvalid' },
      command: { key: 'jobs.form.commandUnterminated' },
      env: { key: 'jobs.form.envInvalid' },
      'resources.cpu': { key: 'units.notANumber' },
      'resources.memory': { key: 'units.tooSmall', values: { limit: '1000 MiB' } },
      'resources.sharedMemory': { key: 'units.negative' },
      'resources.accelerators': { key: 'jobs.form.acceleratorsInvalid' },
      workers: { key: 'units.wholeNumber' },
      timeLimit: { key: 'units.notANumber' },
    });
    expect(built.envErrors).toEqual([{ line: 1, problem: 'reserved', name: 'HOME' }]);
  });

  it.each([
    ['name', { name: 'x'.repeat(300) }, { key: 'units.tooLong', values: { max: 100, count: 300 } }],
    ['resources.accelerators', { acceleratorModel: 'm', accelerators: '-1' }, { key: 'units.negative' }],
    [
      'resources.accelerators',
      { acceleratorModel: 'm', accelerators: '65' },
      { key: 'units.tooLarge', values: { limit: '64', unit: 'units.accelerator' } },
    ],
    ['resources.memory', { memory: '99999Ti' }, { key: 'units.tooLarge', values: { limit: '16 TiB', unit: '' } }],
    ['resources.cpu', { cpu: '2000' }, { key: 'units.tooLarge', values: { limit: '1024', unit: 'units.cpu' } }],
    ['workers', { kind: 'pytorch' as const, workers: '256' }, { key: 'units.tooLarge', values: { limit: '255', unit: '' } }],
  ])('refuses %s beyond the server limit: %j', (field, patch, problem) => {
    expect(buildSubmitJob({ ...base, ...patch }).errors).toEqual({ [field]: problem });
  });

  it('reads memory in GiB and durations in hours, sending the server forms', () => {
    const { body } = buildSubmitJob({ ...base, cpu: '1,5', memory: '64', sharedMemory: '0,5', timeLimit: '1.5' });
    expect(body?.resources).toEqual({ cpu: '1500m', memory: '64Gi', sharedMemory: '512Mi' });
    expect(body?.timeLimit).toBe('90m');
  });

  it('accepts a zero shared memory and zero workers', () => {
    const { body } = buildSubmitJob({ ...base, kind: 'pytorch', sharedMemory: '0', workers: '0' });
    expect(body?.resources.sharedMemory).toBe('0');
    expect(body?.workers).toBe(0);
  });
});

describe('formFieldOf', () => {
  it('maps server fields to the input showing them', () => {
    expect(formFieldOf('env.CRATER_X')).toBe('env');
    expect(formFieldOf('args')).toBe('command');
    expect(formFieldOf('resources.cpu')).toBe('resources.cpu');
  });
});

describe('copyName', () => {
  it('adds the suffix, shortening long names so that the copy still fits', () => {
    expect(copyName('hello')).toBe('hello (copy)');
    expect(copyName(' hello ', ' (副本)')).toBe('hello (副本)');
    const long = copyName('x'.repeat(100));
    expect(long).toHaveLength(100);
    expect(long.endsWith(' (copy)')).toBe(true);
    expect(copyName('')).toBe(' (copy)');
  });
});

describe('jobFormFromSpec', () => {
  const full: SubmitJob = {
    name: 'train',
    kind: 'pytorch',
    image: 'pytorch/pytorch:2.5.1',
    command: ['torchrun', 'train.py'],
    args: ['--name', 'my run'],
    workingDir: '/crater/user',
    env: { EPOCHS: '10', NOTE: 'a=b c' },
    resources: { cpu: '8', memory: '64Gi', acceleratorModel: 'nvidia-a100-80gb', accelerators: 4, sharedMemory: '8Gi' },
    workers: 2,
    timeLimit: '3d',
    priority: 'high',
    template: { id: 'pytorch-ddp', version: 2, parameters: { workers: '2' } },
    sourceJob: 'j-older',
    // A resubmission away from a node whose card failed.
    nodes: { avoid: ['a100-4'] },
  };

  it('fills every input from the spec, with the copy suffix on the name', () => {
    expect(jobFormFromSpec(full)).toEqual({
      kind: 'pytorch',
      name: 'train (copy)',
      image: 'pytorch/pytorch:2.5.1',
      command: `torchrun train.py --name 'my run'`,
      env: 'EPOCHS=10\nNOTE=a=b c',
      workingDir: '/crater/user',
      cpu: '8',
      memory: '64',
      acceleratorModel: 'nvidia-a100-80gb',
      accelerators: '4',
      sharedMemory: '8',
      workers: '2',
      timeLimit: '3d',
      priority: 'high',
      mounts: '',
      nodes: { mode: 'avoid', names: ['a100-4'] },
    });
  });

  it('builds back the same spec, without the template, and with the new name', () => {
    const { body, errors } = buildSubmitJob(jobFormFromSpec(full));
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: 'train (copy)',
      kind: 'pytorch',
      image: 'pytorch/pytorch:2.5.1',
      command: ['torchrun', 'train.py', '--name', 'my run'],
      workingDir: '/crater/user',
      env: { EPOCHS: '10', NOTE: 'a=b c' },
      resources: full.resources,
      workers: 2,
      timeLimit: '3d',
      priority: 'high',
      nodes: { avoid: ['a100-4'] },
    });
  });

  it('leaves absent fields empty so that the server defaults apply again (nulls included)', () => {
    const sparse = {
      name: 'nb',
      kind: 'jupyter',
      image: null,
      command: null,
      resources: { cpu: null, memory: '8Gi', acceleratorModel: null, accelerators: null },
      workers: null,
      timeLimit: null,
      priority: null,
      nodes: null,
    } as unknown as SubmitJob;
    expect(jobFormFromSpec(sparse, ' (副本)')).toEqual({
      ...defaultJobForm('jupyter'),
      name: 'nb (副本)',
      cpu: '',
      memory: '8',
    });
    expect(buildSubmitJob(jobFormFromSpec(sparse)).body).toEqual({
      name: 'nb (copy)',
      kind: 'jupyter',
      resources: { memory: '8Gi' },
      priority: 'normal',
    });
  });

  it('drops the command of interactive kinds and a model without devices', () => {
    const values = jobFormFromSpec({
      name: 'ide',
      kind: 'webide',
      command: ['code-server'],
      resources: { acceleratorModel: 'nvidia-a100-80gb', accelerators: 0 },
    });
    expect(values.command).toBe('');
    expect(values.acceleratorModel).toBe('');
    expect(values.accelerators).toBe('1');
  });

  it('falls back to custom and normal for unknown kinds and priorities', () => {
    const odd = { name: 'x', kind: 'mystery', priority: 'urgent', resources: {} } as unknown as SubmitJob;
    const values = jobFormFromSpec(odd);
    expect(values.kind).toBe('custom');
    expect(values.priority).toBe('normal');
  });
});

describe('templateClone', () => {
  it("keeps the original's template version, values (as typed), name, priority and working directory", () => {
    const spec = {
      name: 'train',
      kind: 'pytorch',
      resources: {},
      priority: 'high',
      workingDir: '/data/run',
      nodes: { use: ['a100-1', 'a100-2'] },
      template: { id: 'pytorch-ddp', version: 3, parameters: { workers: 2, fp16: true, image: 'pt:2', none: null } },
    } as unknown as SubmitJob;
    expect(templateClone(spec, 'j-1')).toEqual({
      sourceJob: 'j-1',
      templateId: 'pytorch-ddp',
      version: 3,
      name: 'train (copy)',
      priority: 'high',
      parameters: { workers: '2', fp16: 'true', image: 'pt:2' },
      workingDir: '/data/run',
      nodes: { mode: 'use', names: ['a100-1', 'a100-2'] },
    });
  });

  it('is null for a job typed in full (or resubmitted, which keeps only the rendered spec)', () => {
    expect(templateClone({ name: 'a', kind: 'custom', resources: {} }, 'j-1')).toBeNull();
    expect(templateClone({ name: 'a', kind: 'custom', resources: {}, template: null } as unknown as SubmitJob, 'j-1')).toBeNull();
  });

  it('defaults an unknown priority and a missing version and directory', () => {
    const spec = { name: 'a', kind: 'custom', resources: {}, priority: 'urgent', template: { id: 't' } } as unknown as SubmitJob;
    expect(templateClone(spec, 'j-2', ' (副本)')).toMatchObject({
      version: undefined,
      name: 'a (副本)',
      priority: 'normal',
      parameters: {},
      workingDir: '',
      nodes: { mode: 'any', names: [] },
    });
  });
});

describe('checkWorkingDir', () => {
  it('accepts empty and absolute paths and refuses what the server refuses', () => {
    expect(checkWorkingDir('')).toBeNull();
    expect(checkWorkingDir('/workspace')).toBeNull();
    expect(checkWorkingDir('workspace')).toEqual({ key: 'jobs.form.workingDirAbsolute' });
    expect(checkWorkingDir('/' + 'a'.repeat(1024))).toEqual({ key: 'units.tooLong', values: { max: 1024, count: 1025 } });
  });

  it('stops the form and sends a good directory trimmed', () => {
    const bad = buildSubmitJob({ ...defaultJobForm(), name: 'x', image: 'i', command: 'true', workingDir: 'rel' });
    expect(bad.body).toBeNull();
    expect(bad.errors).toEqual({ workingDir: { key: 'jobs.form.workingDirAbsolute' } });
    const good = buildSubmitJob({ ...defaultJobForm(), name: 'x', image: 'i', command: 'true', workingDir: ' /w ' });
    expect(good.body?.workingDir).toBe('/w');
  });
});
