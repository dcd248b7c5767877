import { describe, expect, it } from 'vitest';
import type { TemplateSummary } from '../../api/types';
import { canEditTemplate, parseVersionParam, templateBadge, templateUseLink } from './templateCard';

function summary(overrides: Partial<TemplateSummary> = {}): TemplateSummary {
  return {
    id: 'tpl-1',
    name: 'My template',
    description: '',
    kind: 'custom',
    builtin: false,
    visibility: 'private',
    account: null,
    owner: 'alice',
    version: 1,
    updatedAt: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

const alice = { username: 'alice', role: 'user' as const };
const bob = { username: 'bob', role: 'user' as const };
const admin = { username: 'root', role: 'admin' as const };

describe('templateBadge', () => {
  it('shows built-in before the visibility', () => {
    expect(templateBadge(summary({ builtin: true, visibility: 'public' }))).toBe('builtin');
    expect(templateBadge(summary({ visibility: 'account' }))).toBe('account');
    expect(templateBadge(summary({ visibility: 'public' }))).toBe('public');
    expect(templateBadge(summary())).toBe('private');
  });
});

describe('canEditTemplate', () => {
  it.each([
    ['own private template', summary(), alice, true],
    ["someone else's public template", summary({ visibility: 'public' }), bob, false],
    ['admin on a shared template', summary({ visibility: 'account', account: 'lab' }), admin, true],
    ['admin on a public template', summary({ visibility: 'public' }), admin, true],
    ["admin on someone's private template", summary(), admin, false],
    ['a built-in template, even for an admin', summary({ builtin: true, owner: null, visibility: 'public' }), admin, false],
    ['built-in template without owner', summary({ builtin: true, owner: null }), alice, false],
  ])('%s', (_name, t, user, expected) => {
    expect(canEditTemplate(t, user)).toBe(expected);
  });

  it('follows canEdit when the server sends it', () => {
    expect(canEditTemplate({ ...summary(), canEdit: false }, alice)).toBe(false);
    expect(canEditTemplate({ ...summary({ owner: 'carol' }), canEdit: true }, bob)).toBe(true);
  });
});

describe('templateUseLink', () => {
  it('links to the new-job page, with the version when pinned', () => {
    expect(templateUseLink('jupyter-pytorch')).toBe('/jobs/new?template=jupyter-pytorch');
    expect(templateUseLink('a b', 3)).toBe('/jobs/new?template=a+b&version=3');
  });
});

describe('parseVersionParam', () => {
  it.each([
    [null, undefined],
    ['', undefined],
    ['3', 3],
    ['0', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['latest', undefined],
  ])('%j → %j', (text, expected) => {
    expect(parseVersionParam(text)).toBe(expected);
  });
});
