import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import {
  buildFieldError,
  buildSeconds,
  buildTone,
  checkBuildForm,
  createBuildBody,
  emptyBuildForm,
  isBuildField,
  isRunning,
  parsePackages,
  registryCredentials,
  type BuildFormValues,
} from './buildForm';

const form = (patch: Partial<BuildFormValues>): BuildFormValues => ({
  ...emptyBuildForm(),
  base: 'pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime',
  pip: 'transformers==4.44.0',
  destination: 'registry.lab:5000/ada/trainer:1',
  ...patch,
});

describe('checkBuildForm', () => {
  const cases: [string, Partial<BuildFormValues>, Record<string, string>][] = [
    ['a base with a pip package', {}, {}],
    ['version clauses, extras and apt packages', { pip: 'accelerate>=0.33,<1\nuvicorn[standard]', apt: 'git libgl1=1.7.0-1' }, {}],
    ['a base by digest', { base: `ubuntu@sha256:${'a'.repeat(64)}` }, {}],
    ['no base', { base: '  ' }, { base: 'baseRequired' }],
    ['a base with a newline', { base: 'ubuntu:22.04\nRUN x' }, { base: 'base' }],
    ['a base with shell characters', { base: 'ubuntu;reboot' }, { base: 'base' }],
    ['a shell command as a pip package', { pip: 'evil;rm' }, { pip: 'pip' }],
    ['a command substitution', { pip: '$(reboot)' }, { pip: 'pip' }],
    ['a URL', { pip: 'https://x.org/p.whl' }, { pip: 'pip' }],
    ['apt chaining', { pip: '', apt: 'git && curl' }, { apt: 'apt' }],
    ['an upper-case apt name', { pip: '', apt: 'Git' }, { apt: 'apt' }],
    ['no packages', { pip: '', apt: '' }, { pip: 'noPackages' }],
    ['101 pip packages', { pip: Array.from({ length: 101 }, (_, i) => `p${i}`).join(' ') }, { pip: 'tooMany' }],
    ['a Dockerfile with FROM', { mode: 'dockerfile', base: '', pip: '', dockerfile: 'FROM ubuntu:22.04\nRUN true' }, {}],
    ['a Dockerfile without FROM', { mode: 'dockerfile', dockerfile: 'RUN true' }, { dockerfile: 'dockerfileFrom' }],
    ['an empty Dockerfile', { mode: 'dockerfile', dockerfile: ' ' }, { dockerfile: 'dockerfileRequired' }],
    ['a Dockerfile over 64 KiB', { mode: 'dockerfile', dockerfile: `FROM x\n${'#'.repeat(64 * 1024)}` }, { dockerfile: 'dockerfileSize' }],
    ['no destination', { destination: '' }, { destination: 'destinationRequired' }],
    ['a destination without tag', { destination: 'registry.lab:5000/ada/trainer' }, { destination: 'destination' }],
    ['a destination with a digest', { destination: `r.io/a/b@sha256:${'a'.repeat(64)}` }, { destination: 'destination' }],
    ['a bad CUDA version', { cudaVersion: '12' }, { cudaVersion: 'cudaVersion' }],
    ['a bad vendor', { vendors: 'nv_idia' }, { vendors: 'vendors' }],
    ['a long description', { description: 'x'.repeat(2001) }, { description: 'description' }],
  ];
  it.each(cases)('%s', (_name, patch, expected) => {
    expect(checkBuildForm(form(patch))).toEqual(expected);
  });
});

describe('parsePackages', () => {
  it('splits on spaces and new lines only, so version clauses keep their commas', () => {
    expect(parsePackages(' accelerate>=0.33,<1\n\ngit  git ')).toEqual(['accelerate>=0.33,<1', 'git']);
  });
});

describe('createBuildBody', () => {
  it('sends the packages mode without Dockerfile and leaves empty optional fields out', () => {
    expect(createBuildBody(form({ pip: 'a==1\n b  a==1', apt: 'git', dockerfile: 'FROM x' }))).toEqual({
      base: 'pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime',
      pip: ['a==1', 'b'],
      apt: ['git'],
      destination: 'registry.lab:5000/ada/trainer:1',
    });
  });

  it('sends the Dockerfile mode with the credential and catalogue fields, without base or packages', () => {
    const v = form({
      mode: 'dockerfile',
      dockerfile: 'FROM x\n',
      credential: 'reg',
      description: ' trainer ',
      cudaVersion: '12.1',
      kinds: ['pytorch'],
      vendors: 'NVIDIA',
    });
    expect(createBuildBody(v)).toEqual({
      dockerfile: 'FROM x\n',
      destination: 'registry.lab:5000/ada/trainer:1',
      credential: 'reg',
      description: 'trainer',
      cudaVersion: '12.1',
      kinds: ['pytorch'],
      vendors: ['nvidia'],
    });
  });
});

describe('server field errors', () => {
  const refused = new ApiError({
    status: 400,
    code: 'InvalidImageBuild',
    title: 'Bad Request',
    detail: 'the image build cannot be started as given',
    fieldErrors: [
      { field: 'pip[1]', message: 'not a pip requirement' },
      { field: 'credential', message: "you have no credential named 'reg'" },
    ],
  });
  it('puts pip[i] beside the pip field with the package it names', () => {
    const v = form({ pip: 'ok bad' });
    expect(buildFieldError(refused, 'pip', v)).toBe('bad: not a pip requirement');
    expect(buildFieldError(refused, 'credential', v)).toBe("you have no credential named 'reg'");
    expect(buildFieldError(refused, 'apt', v)).toBeUndefined();
    expect(isBuildField('pip[1]')).toBe(true);
    expect(isBuildField('cpu')).toBe(false);
  });
});

describe('build states', () => {
  it('tells running builds, their tone and how long they ran in seconds', () => {
    expect(isRunning('building')).toBe(true);
    expect(isRunning('pushed')).toBe(true);
    expect(isRunning('failed')).toBe(false);
    expect(buildTone('succeeded')).toBe('success');
    expect(buildTone('failed')).toBe('danger');
    expect(buildTone('stopped')).toBe('neutral');
    expect(buildSeconds({ createdAt: '2026-12-01T10:00:00Z', finishedAt: '2026-12-01T10:05:03Z' })).toBe(303);
    expect(buildSeconds({ createdAt: '2026-12-01T10:00:00Z', finishedAt: null }, Date.parse('2026-12-01T10:00:10Z'))).toBe(10);
  });

  it('offers only registry credentials', () => {
    const c = { createdAt: '', updatedAt: '' };
    expect(
      registryCredentials([
        { name: 'hf', kind: 'huggingface', ...c },
        { name: 'reg', kind: 'registry', host: 'ghcr.io', ...c },
      ]).map((x) => x.name),
    ).toEqual(['reg']);
  });
});
