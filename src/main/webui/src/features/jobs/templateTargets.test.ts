import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import type { TemplateParameter } from '../../api/types';
import { checkAmountParameters, imageParameter, parameterTargets, templateFieldErrors } from './templateTargets';

const SPEC = {
  kind: 'custom',
  image: '${image}',
  resources: { memory: '${mem}', acceleratorModel: '${model}', accelerators: '${gpus}', cpu: '${cpu}Gi' },
  timeLimit: '${limit}',
};

const param = (name: string, type: TemplateParameter['type']) => ({ name, type, required: false }) as TemplateParameter;
const PARAMS = [param('mem', 'quantity'), param('gpus', 'integer'), param('limit', 'duration'), param('image', 'string')];

describe('parameterTargets', () => {
  it('finds the field each placeholder fills on its own', () => {
    expect(parameterTargets(SPEC)).toEqual({
      image: 'image',
      mem: 'resources.memory',
      model: 'resources.acceleratorModel',
      gpus: 'resources.accelerators',
      limit: 'timeLimit',
    });
  });
});

describe('checkAmountParameters', () => {
  const targets = parameterTargets(SPEC);
  it('reads amounts in the unit of the field they fill and sends the server form', () => {
    expect(checkAmountParameters(PARAMS, { mem: '64', gpus: '2', limit: '1,5', image: 'x' }, targets)).toEqual({
      values: { mem: '64Gi', gpus: '2', limit: '90m' },
      errors: {},
    });
  });
  it.each([
    ['gpus', '-1', { key: 'units.negative' }],
    ['gpus', '65', { key: 'units.tooLarge', values: { limit: '64', unit: 'units.accelerator' } }],
    ['mem', '99999Ti', { key: 'units.tooLarge', values: { limit: '16 TiB', unit: '' } }],
    ['limit', '2 weeks', { key: 'units.notANumber' }],
  ])('refuses %s = %s', (name, value, problem) => {
    expect(checkAmountParameters(PARAMS, { [name]: value }, targets).errors).toEqual({ [name]: problem });
  });
});

describe('templateFieldErrors', () => {
  it("puts the server's errors under the parameter that fills the field", () => {
    const error = new ApiError({
      status: 400,
      code: 'InvalidJob',
      title: 'Bad Request',
      fieldErrors: [
        { field: 'resources.accelerators', message: 'must not be negative' },
        { field: 'parameters.mem', message: 'a quantity such as 4, 500m or 16Gi' },
        { field: 'workingDir', message: 'an absolute path' },
      ],
    });
    const { byParameter, shown } = templateFieldErrors(error, parameterTargets(SPEC));
    expect(byParameter).toEqual({ gpus: 'must not be negative', mem: 'a quantity such as 4, 500m or 16Gi' });
    expect(['resources.accelerators', 'parameters.mem', 'name', 'workingDir'].map(shown)).toEqual([true, true, true, false]);
  });
});

describe('imageParameter', () => {
  const param = (name: string, type: TemplateParameter['type']): TemplateParameter => ({
    name,
    label: name,
    description: null,
    type,
    default: null,
    required: false,
    options: null,
  });
  const PARAMS = [param('image', 'string'), param('model', 'model'), param('gpus', 'integer')];

  it("is the string parameter filling the image, with the model parameter's value", () => {
    expect(imageParameter(PARAMS, SPEC, parameterTargets(SPEC), { image: '', model: ' a100 ' })).toEqual({
      name: 'image',
      acceleratorModel: 'a100',
    });
    expect(imageParameter(PARAMS, SPEC, parameterTargets(SPEC), {})).toEqual({ name: 'image', acceleratorModel: '' });
  });

  it("takes the spec's own model when no parameter fills it", () => {
    const spec = { kind: 'pytorch', image: '${image}', resources: { acceleratorModel: '910b', accelerators: 8 } };
    expect(imageParameter(PARAMS, spec, parameterTargets(spec), { model: 'a100' })).toEqual({ name: 'image', acceleratorModel: '910b' });
  });

  it('is null when the image is written in the spec or filled only in part', () => {
    for (const image of ['python:3.12', 'ghcr.io/lab/${image}']) {
      const spec = { kind: 'custom', image };
      expect(imageParameter(PARAMS, spec, parameterTargets(spec), {})).toBeNull();
    }
    expect(imageParameter([param('image', 'choice')], SPEC, parameterTargets(SPEC), {})).toBeNull();
  });
});
