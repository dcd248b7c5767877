import { describe, expect, it } from 'vitest';
import { buildSubmitJob, defaultJobForm, formFieldOf, type JobFormValues } from './jobForm';

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
      image: 'jobs.form.imageRequired',
      command: 'jobs.form.commandRequired',
    });
    const inference = buildSubmitJob({ ...base, kind: 'inference', image: '', command: '' });
    expect(inference.errors).toEqual({ image: 'jobs.form.imageRequired' });
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
      name: 'jobs.form.nameRequired',
      image: 'jobs.form.imageInvalid',
      command: 'jobs.form.commandUnterminated',
      env: 'jobs.form.envInvalid',
      'resources.cpu': 'jobs.form.quantityInvalid',
      'resources.memory': 'jobs.form.quantityInvalid',
      'resources.sharedMemory': 'jobs.form.quantityInvalid',
      'resources.accelerators': 'jobs.form.acceleratorsInvalid',
      workers: 'jobs.form.workersInvalid',
      timeLimit: 'jobs.form.timeLimitInvalid',
    });
    expect(built.envErrors).toEqual([{ line: 1, problem: 'reserved', name: 'HOME' }]);
    expect(buildSubmitJob({ ...base, name: 'x'.repeat(101) }).errors).toEqual({ name: 'jobs.form.nameTooLong' });
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
