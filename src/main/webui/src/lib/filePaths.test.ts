import { describe, expect, it } from 'vitest';
import {
  apiPath,
  baseName,
  breadcrumbs,
  folderRoute,
  foldersFor,
  join,
  normalise,
  parent,
  pathFromSplat,
  previewKind,
  workingDirRoute,
} from './filePaths';

describe('paths inside a space', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['a//b/', '/a/b'],
    ['/a/b', '/a/b'],
  ])('normalises %j to %j', (raw, want) => expect(normalise(raw)).toBe(want));

  it('joins, finds parents and names', () => {
    expect(join('/', 'x')).toBe('/x');
    expect(join('/a', 'b/c.txt')).toBe('/a/b/c.txt');
    expect(parent('/a/b')).toBe('/a');
    expect(parent('/a')).toBe('/');
    expect(parent('/')).toBe('/');
    expect(baseName('/a/b.txt')).toBe('b.txt');
    expect(baseName('/')).toBe('');
  });

  it('encodes each segment on its own, so names with / ? # % stay one segment', () => {
    expect(apiPath('user', '/')).toBe('/files/user');
    expect(apiPath('user', '/a b/c%d?#')).toBe('/files/user/a%20b/c%25d%3F%23');
    expect(apiPath('account:lab', '/data')).toBe('/files/account:lab/data');
    expect(folderRoute('account:lab', '/x y')).toBe('/files/account:lab/x%20y');
  });

  it('reads the folder from the route splat', () => {
    expect(pathFromSplat(undefined)).toBe('/');
    expect(pathFromSplat('')).toBe('/');
    expect(pathFromSplat('data/runs/')).toBe('/data/runs');
  });
});

describe('breadcrumbs', () => {
  it('are the root alone for the root', () => {
    expect(breadcrumbs('user', '/')).toEqual([{ name: null, path: '/', route: '/files/user' }]);
  });

  it('lead from the space root to the folder', () => {
    expect(breadcrumbs('account:lab', '/data/run 1')).toEqual([
      { name: null, path: '/', route: '/files/account:lab' },
      { name: 'data', path: '/data', route: '/files/account:lab/data' },
      { name: 'run 1', path: '/data/run 1', route: '/files/account:lab/data/run%201' },
    ]);
  });
});

describe('the folders an upload needs', () => {
  it('lists each folder once, parents before children', () => {
    expect(foldersFor('/in', ['a/b/c.txt', 'a/d.txt', 'e.txt', 'a/b/f/g.txt'])).toEqual(['/in/a', '/in/a/b', '/in/a/b/f']);
  });

  it('needs none for plain files', () => {
    expect(foldersFor('/', ['x.txt', 'y.txt'])).toEqual([]);
  });
});

describe('previews', () => {
  it.each([
    ['photo.PNG', 'image'],
    ['a.webp', 'image'],
    ['train.py', 'text'],
    ['README.md', 'text'],
    ['Makefile', 'text'],
    ['model.pt', null],
    ['icon.svg', null],
  ])('%s is %s', (name, want) => expect(previewKind(name)).toBe(want));
});

describe("a job's working directory in the file manager", () => {
  const job = { account: 'lab', owner: 'alice' };
  it.each([
    ['/crater/user', 'alice', '/files/user'],
    ['/crater/user/runs/7', 'alice', '/files/user/runs/7'],
    ['/crater/user/runs', 'bob', null],
    ['/crater/user/runs', null, null],
    ['/crater/account/data', 'bob', '/files/account:lab/data'],
    ['/crater/public', 'bob', '/files/public'],
    ['/crater/userx', 'alice', null],
    ['/workspace', 'alice', null],
    [undefined, 'alice', null],
  ])('%s seen by %s → %s', (dir, viewer, want) => expect(workingDirRoute(dir, job, viewer)).toBe(want));
});
