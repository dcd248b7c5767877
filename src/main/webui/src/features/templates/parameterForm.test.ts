import { describe, expect, it } from 'vitest';
import type { ParameterType, TemplateParameter } from '../../api/types';
import { buildParameters, initialParameterValues, isTrue, serverParameterErrors, validateParameter } from './parameterForm';

function param(name: string, type: ParameterType, extra: Partial<TemplateParameter> = {}): TemplateParameter {
  return { name, label: name, description: null, type, default: null, required: false, options: null, ...extra };
}

const MODELS = ['nvidia-a100-80gb', 'ascend-910b'];

describe('initialParameterValues', () => {
  it('starts from the defaults, "" without one, and "true"/"false" for booleans', () => {
    expect(
      initialParameterValues([
        param('image', 'string', { default: 'python:3.12' }),
        param('script', 'text'),
        param('gpus', 'integer', { default: '2' }),
        param('memory', 'quantity', { default: '16Gi' }),
        param('limit', 'duration', { default: '12h' }),
        param('model', 'model', { default: 'nvidia-a100-80gb' }),
        param('precision', 'choice', { options: ['fp16', 'bf16'], default: 'bf16' }),
        param('debug', 'boolean'),
        param('lora', 'boolean', { default: 'TRUE' }),
        param('cache', 'boolean', { default: 'false' }),
      ]),
    ).toEqual({
      image: 'python:3.12',
      script: '',
      gpus: '2',
      memory: '16Gi',
      limit: '12h',
      model: 'nvidia-a100-80gb',
      precision: 'bf16',
      debug: 'false',
      lora: 'true',
      cache: 'false',
    });
  });

  it('gives an empty map for a template without parameters', () => {
    expect(initialParameterValues([])).toEqual({});
  });
});

describe('isTrue', () => {
  it.each([
    ['true', true],
    [' True ', true],
    ['false', false],
    ['', false],
    ['yes', false],
    [null, false],
    [undefined, false],
  ])('%j → %s', (value, expected) => {
    expect(isTrue(value)).toBe(expected);
  });
});

describe('validateParameter', () => {
  const cases: [string, TemplateParameter, string, string | null][] = [
    // required / optional
    ['optional empty string', param('s', 'string'), '', null],
    ['optional blank string', param('s', 'string'), '   ', null],
    ['required empty string', param('s', 'string', { required: true }), '', 'templates.param.required'],
    ['required blank string', param('s', 'string', { required: true }), '  ', 'templates.param.required'],
    ['required string', param('s', 'string', { required: true }), 'x', null],
    ['required blank text', param('t', 'text', { required: true }), '\n  \n', 'templates.param.required'],
    ['multi-line text', param('t', 'text', { required: true }), 'line 1\nline 2', null],
    ['required empty integer', param('i', 'integer', { required: true }), '', 'templates.param.required'],
    ['optional empty integer', param('i', 'integer'), '', null],
    // integer
    ['integer', param('i', 'integer'), '8', null],
    ['integer zero', param('i', 'integer'), '0', null],
    ['negative integer', param('i', 'integer'), '-3', null],
    ['integer with spaces around', param('i', 'integer'), ' 4 ', null],
    ['decimal integer', param('i', 'integer'), '1.5', 'templates.param.integerInvalid'],
    ['integer with unit', param('i', 'integer'), '4Gi', 'templates.param.integerInvalid'],
    ['integer words', param('i', 'integer'), 'two', 'templates.param.integerInvalid'],
    ['integer exponent', param('i', 'integer'), '1e3', 'templates.param.integerInvalid'],
    ['integer nine digits', param('i', 'integer'), '999999999', null],
    ['integer ten digits', param('i', 'integer'), '1234567890', 'templates.param.integerInvalid'],
    ['integer too large', param('i', 'integer'), '99999999999999999999', 'templates.param.integerInvalid'],
    ['integer plus sign', param('i', 'integer'), '+3', 'templates.param.integerInvalid'],
    // quantity
    ['quantity plain', param('q', 'quantity'), '4', null],
    ['quantity decimal', param('q', 'quantity'), '0.5', null],
    ['quantity milli', param('q', 'quantity'), '500m', null],
    ['quantity Gi', param('q', 'quantity'), '16Gi', null],
    ['quantity Ki', param('q', 'quantity'), '512Ki', null],
    ['quantity Ti', param('q', 'quantity'), '1.5Ti', null],
    ['quantity k', param('q', 'quantity'), '100k', null],
    ['quantity G', param('q', 'quantity'), '2G', null],
    ['quantity zero', param('q', 'quantity'), '0', null],
    ['quantity lower-case gi', param('q', 'quantity'), '16gi', 'templates.param.quantityInvalid'],
    ['quantity negative', param('q', 'quantity'), '-1', 'templates.param.quantityInvalid'],
    ['quantity inner space', param('q', 'quantity'), '16 Gi', 'templates.param.quantityInvalid'],
    ['quantity bare dot', param('q', 'quantity'), '1.', 'templates.param.quantityInvalid'],
    ['quantity leading dot', param('q', 'quantity'), '.5', 'templates.param.quantityInvalid'],
    ['quantity words', param('q', 'quantity'), 'lots', 'templates.param.quantityInvalid'],
    ['quantity unit only', param('q', 'quantity'), 'Gi', 'templates.param.quantityInvalid'],
    // duration
    ['duration minutes', param('d', 'duration'), '90m', null],
    ['duration hours', param('d', 'duration'), '12h', null],
    ['duration days', param('d', 'duration'), '3d', null],
    ['duration seconds', param('d', 'duration'), '30s', null],
    ['duration six digits', param('d', 'duration'), '999999s', null],
    ['duration seven digits', param('d', 'duration'), '1000000s', 'templates.param.durationInvalid'],
    ['duration no unit', param('d', 'duration'), '90', 'templates.param.durationInvalid'],
    ['duration two units', param('d', 'duration'), '1h30m', 'templates.param.durationInvalid'],
    ['duration weeks', param('d', 'duration'), '2w', 'templates.param.durationInvalid'],
    ['duration decimal', param('d', 'duration'), '1.5h', 'templates.param.durationInvalid'],
    ['duration upper-case', param('d', 'duration'), '12H', 'templates.param.durationInvalid'],
    // choice
    ['choice offered', param('c', 'choice', { options: ['fp16', 'bf16'] }), 'bf16', null],
    ['choice not offered', param('c', 'choice', { options: ['fp16', 'bf16'] }), 'fp32', 'templates.param.choiceInvalid'],
    ['choice case differs', param('c', 'choice', { options: ['fp16', 'bf16'] }), 'BF16', 'templates.param.choiceInvalid'],
    ['choice without options', param('c', 'choice'), 'x', 'templates.param.choiceInvalid'],
    ['optional choice empty', param('c', 'choice', { options: ['a'] }), '', null],
    ['required choice empty', param('c', 'choice', { options: ['a'], required: true }), '', 'templates.param.required'],
    // boolean
    ['boolean true', param('b', 'boolean'), 'true', null],
    ['boolean false', param('b', 'boolean'), 'false', null],
    ['boolean required false', param('b', 'boolean', { required: true }), 'false', null],
    ['boolean yes', param('b', 'boolean'), 'yes', 'templates.param.booleanInvalid'],
    ['boolean empty', param('b', 'boolean'), '', 'templates.param.booleanInvalid'],
    // arguments (a command line)
    ['arguments', param('a', 'arguments'), '--epochs 10 --lr 3e-4', null],
    ['arguments quoted', param('a', 'arguments'), `python -c "print('hi there')"`, null],
    ['arguments unterminated quote', param('a', 'arguments'), '--name "run 1', 'templates.param.argumentsInvalid'],
    ['arguments dangling backslash', param('a', 'arguments'), 'echo \\', 'templates.param.argumentsInvalid'],
    ['required arguments empty', param('a', 'arguments', { required: true }), ' ', 'templates.param.required'],
    // model
    ['model from catalogue', param('m', 'model'), 'ascend-910b', null],
    ['model none when optional', param('m', 'model'), '', null],
    ['model none when required', param('m', 'model', { required: true }), '', 'templates.param.required'],
    ['model unknown', param('m', 'model'), 'nvidia-h100', 'templates.param.modelInvalid'],
  ];

  it.each(cases)('%s', (_name, p, value, expected) => {
    expect(validateParameter(p, value, MODELS)).toBe(expected);
  });

  it('accepts any model key while the catalogue is not known', () => {
    expect(validateParameter(param('m', 'model'), 'nvidia-h100')).toBeNull();
    expect(validateParameter(param('m', 'model', { required: true }), '')).toBe('templates.param.required');
  });

  it('treats a missing value as empty', () => {
    expect(validateParameter(param('s', 'string'), undefined)).toBeNull();
    expect(validateParameter(param('s', 'string', { required: true }), undefined)).toBe('templates.param.required');
  });
});

describe('buildParameters', () => {
  const parameters = [
    param('name', 'string', { required: true }),
    param('script', 'text'),
    param('workers', 'integer', { default: '1' }),
    param('memory', 'quantity'),
    param('limit', 'duration'),
    param('model', 'model'),
    param('precision', 'choice', { options: ['fp16', 'bf16'] }),
    param('debug', 'boolean'),
  ];

  it('sends every parameter as a string, trimmed except text, "" for the ones left empty', () => {
    const built = buildParameters(
      parameters,
      {
        name: '  run-1 ',
        script: '  echo hi\n',
        workers: ' 3 ',
        memory: '16Gi',
        limit: '',
        model: '',
        precision: 'bf16',
        debug: 'true',
      },
      MODELS,
    );
    expect(built.errors).toEqual({});
    expect(built.parameters).toEqual({
      name: 'run-1',
      script: '  echo hi\n',
      workers: '3',
      memory: '16Gi',
      limit: '',
      model: '',
      precision: 'bf16',
      debug: 'true',
    });
  });

  it('drops values of names the template does not declare and fills missing ones', () => {
    const built = buildParameters(parameters, { name: 'x', stale: 'old' }, MODELS);
    expect(built.parameters).toEqual({
      name: 'x',
      script: '',
      workers: '',
      memory: '',
      limit: '',
      model: '',
      precision: '',
      debug: 'false',
    });
  });

  it('reports every invalid value by parameter name and sends nothing', () => {
    const built = buildParameters(
      parameters,
      {
        name: ' ',
        workers: '1.5',
        memory: '16 GB',
        limit: '2 weeks',
        model: 'nvidia-h100',
        precision: 'fp64',
        debug: 'maybe',
      },
      MODELS,
    );
    expect(built.parameters).toBeNull();
    expect(built.errors).toEqual({
      name: 'templates.param.required',
      workers: 'templates.param.integerInvalid',
      memory: 'templates.param.quantityInvalid',
      limit: 'templates.param.durationInvalid',
      model: 'templates.param.modelInvalid',
      precision: 'templates.param.choiceInvalid',
      debug: 'templates.param.booleanInvalid',
    });
  });

  it('builds an empty map for a template without parameters', () => {
    expect(buildParameters([], { extra: '1' })).toEqual({ parameters: {}, errors: {} });
  });

  it('round-trips the initial values of a valid template', () => {
    const withDefaults = [
      param('gpus', 'integer', { default: '2', required: true }),
      param('memory', 'quantity', { default: '32Gi' }),
      param('model', 'model', { default: 'nvidia-a100-80gb' }),
      param('lora', 'boolean', { default: 'true' }),
    ];
    expect(buildParameters(withDefaults, initialParameterValues(withDefaults), MODELS).parameters).toEqual({
      gpus: '2',
      memory: '32Gi',
      model: 'nvidia-a100-80gb',
      lora: 'true',
    });
  });
});

describe('serverParameterErrors', () => {
  it('maps "parameters.<name>" onto the parameter and keeps the other field errors apart', () => {
    expect(
      serverParameterErrors([
        { field: 'parameters.gpus', message: 'must be at most 8' },
        { field: 'parameters.model', message: 'unknown model' },
        { field: 'parameters.gpus', message: 'must be even' },
        { field: 'name', message: 'too long' },
        { field: '', message: 'something else' },
      ]),
    ).toEqual({
      byName: { gpus: 'must be at most 8; must be even', model: 'unknown model' },
      other: [
        { field: 'name', message: 'too long' },
        { field: '', message: 'something else' },
      ],
    });
  });

  it('keeps dotted parameter names whole and ignores a bare prefix', () => {
    expect(
      serverParameterErrors([
        { field: 'parameters.lr.warmup', message: 'bad' },
        { field: 'parameters.', message: 'no name' },
        { field: 'parametersX', message: 'other' },
      ]),
    ).toEqual({
      byName: { 'lr.warmup': 'bad' },
      other: [
        { field: 'parameters.', message: 'no name' },
        { field: 'parametersX', message: 'other' },
      ],
    });
  });

  it('is empty for no errors', () => {
    expect(serverParameterErrors([])).toEqual({ byName: {}, other: [] });
  });
});
