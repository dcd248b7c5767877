import { describe, expect, it } from 'vitest';
import { parseEnvLines } from './envLines';
import { jobFormFromSpec } from './jobForm';
import { looksSecret, referenceCredentialOnLine, secretLines, suggestCredentialKind, suggestCredentialName } from './secretEnv';

describe('looksSecret', () => {
  it.each([
    ['HF_TOKEN', true],
    ['wandb_api_key', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['DB_Password', true],
    ['MonkeyPatch', true],
    ['HF_HOME', false],
    ['EPOCHS', false],
    ['PASS', false],
  ])('%s → %s', (name, want) => {
    expect(looksSecret(name)).toBe(want);
  });
});

describe('secretLines', () => {
  it('names the plain secret-looking values with their lines, not references, comments or empty values', () => {
    const text = ['EPOCHS=3', 'HF_TOKEN=hf_abc', '# API_KEY=old', 'WANDB_API_KEY=@credential:wb', 'DB_PASSWORD=', 'GH_TOKEN = a=b '].join(
      '\n',
    );
    expect(secretLines(text)).toEqual([
      { line: 2, name: 'HF_TOKEN', value: 'hf_abc' },
      { line: 6, name: 'GH_TOKEN', value: ' a=b ' },
    ]);
  });
});

describe('storing a line as a credential', () => {
  it('suggests a name and a kind from the variable', () => {
    expect(suggestCredentialName('HF_TOKEN')).toBe('hf-token');
    expect(suggestCredentialName('__API__KEY__')).toBe('api-key');
    expect(suggestCredentialName('X'.repeat(60))).toHaveLength(40);
    expect(suggestCredentialName('$$$')).toBe('secret');
    expect(suggestCredentialKind('HF_TOKEN')).toBe('huggingface');
    expect(suggestCredentialKind('WANDB_API_KEY')).toBe('wandb');
    expect(suggestCredentialKind('MODELSCOPE_API_TOKEN')).toBe('modelscope');
    expect(suggestCredentialKind('GITHUB_TOKEN')).toBe('generic');
  });

  it('replaces only that line with the reference, which the form sends as one and warns about no more', () => {
    const text = 'EPOCHS=3\nHF_TOKEN=hf_abc\nSEED=1';
    const after = referenceCredentialOnLine(text, 2, 'hf-token');
    expect(after).toBe('EPOCHS=3\nHF_TOKEN=@credential:hf-token\nSEED=1');
    expect(secretLines(after)).toEqual([]);
    expect(parseEnvLines(after)).toEqual({
      env: { EPOCHS: '3', HF_TOKEN: { credential: 'hf-token' }, SEED: '1' },
      errors: [],
    });
  });
});

describe('references in the env text', () => {
  it('refuses a reference with a bad credential name by its line', () => {
    expect(parseEnvLines('A=1\nHF_TOKEN=@credential:Bad Name').errors).toEqual([{ line: 2, problem: 'credentialName', name: 'HF_TOKEN' }]);
  });

  it('a clone shows a reference as the line that makes it again', () => {
    const form = jobFormFromSpec({ name: 'train', kind: 'custom', resources: {}, env: { HF_TOKEN: { credential: 'hf' }, SEED: '1' } });
    expect(form.env).toBe('HF_TOKEN=@credential:hf\nSEED=1');
    expect(parseEnvLines(form.env).env).toEqual({ HF_TOKEN: { credential: 'hf' }, SEED: '1' });
  });
});
