import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import zh from '../../i18n/zh-CN.json';

/** Leaf keys of a message tree, plural forms (_one, _other) counted once. */
function leafKeys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return [...new Set(Object.entries(tree).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k)))].sort();
}

const SECTIONS = [
  'live',
  'origin',
  'actions',
  'pods',
  'events',
  'exit',
  'logs',
  'manifests',
  'connect',
  'terminal',
  'ssh',
  'gpu',
  'idle',
] as const;
const FLAT = ['filterKind', 'allKinds', 'mineOnly', 'emptyFiltered'] as const;

describe('job detail messages', () => {
  it.each(SECTIONS)('jobs.%s has the same keys in English and Chinese', (section) => {
    const english = leafKeys(en.jobs[section]);
    expect(english.length).toBeGreaterThan(0);
    expect(leafKeys(zh.jobs[section])).toEqual(english);
  });

  it('has the list filter labels in both languages', () => {
    for (const key of FLAT) {
      expect(en.jobs[key]).toBeTruthy();
      expect(zh.jobs[key]).toBeTruthy();
      expect(zh.jobs[key]).not.toBe(en.jobs[key]);
    }
  });
});
