// Unit checks of the site's scripts: the link checker finds what is broken (and only that), the docs' link rules,
// and the OpenAPI rendering. Run with `npm test` (node --test).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkSite, scan } from './check-links.mjs'
import { rewriteDoc } from './prepare.mjs'
import { renderApiPage, typeOf, schemaAnchors } from './openapi.mjs'

function site(files) {
  const dir = mkdtempSync(join(tmpdir(), 'crater-site-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

test('a site whose links all resolve passes', () => {
  const dir = site({
    'index.html': '<a href="/guide/jobs.html#submit">a</a><a href="guide/">b</a><a href="/zh/">c</a>' +
      '<a href="https://example.org/x#y">ext</a><a href="mailto:a@b">m</a><a href="#top">t</a><h1 id="top">T</h1>' +
      '<link rel="stylesheet" href="/assets/s.css"><script src="/assets/a.js"></script>',
    'guide/index.html': '<a href="./jobs#submit">clean url</a><a href="../index.html#top">up</a>',
    'guide/jobs.html': '<h2 id="submit">Submit</h2><a href="#submit">self</a><a name="old">x</a><a href="jobs.html#old">o</a>',
    'zh/index.html': '<a href="/guide/jobs.html#%E4%B8%AD">zh anchor</a><h2 id="x"></h2>',
    'assets/s.css': '', 'assets/a.js': '',
  })
  writeFileSync(join(dir, 'guide/jobs.html'), '<h2 id="submit">S</h2><h2 id="中">中</h2><a href="#submit">s</a><a name="old">x</a><a href="jobs.html#old">o</a>')
  try {
    const r = checkSite(dir)
    assert.deepEqual(r.problems, [])
    assert.equal(r.pages, 4)
  } finally {
    rmSync(dir, { recursive: true })
  }
})

test('a missing page, a missing anchor and a missing asset are each reported', () => {
  const dir = site({
    'index.html': '<a href="/guide/nope.html">gone</a><a href="/guide/jobs.html#nowhere">bad anchor</a>' +
      '<a href="#also-nowhere">self</a><img src="/img/missing.png"><a href="../../outside.html">out</a>',
    'guide/jobs.html': '<h2 id="submit">Submit</h2><script>var s = "<a href=\\"/in-script.html\\">"</script>',
  })
  try {
    const r = checkSite(dir)
    assert.deepEqual(r.problems.map((p) => [p.page, p.link, p.reason]), [
      ['index.html', '#also-nowhere', 'no anchor #also-nowhere in index.html'],
      ['index.html', '../../outside.html', 'no such page or file'],
      ['index.html', '/guide/jobs.html#nowhere', 'no anchor #nowhere in guide/jobs.html'],
      ['index.html', '/guide/nope.html', 'no such page or file'],
      ['index.html', '/img/missing.png', 'no such page or file'],
    ])
  } finally {
    rmSync(dir, { recursive: true })
  }
})

test('a site under a base path checks links against that base', () => {
  const dir = site({ 'index.html': '<a href="/crater/a.html">in</a><a href="/other/a.html">out</a>', 'a.html': '' })
  try {
    assert.deepEqual(checkSite(dir, { base: '/crater/' }).problems.map((p) => p.link), ['/other/a.html'])
  } finally {
    rmSync(dir, { recursive: true })
  }
})

test('scan reads quoted and unquoted attributes and entities, not comments', () => {
  const { links, ids } = scan(`<a href='/a?x=1&amp;y=2#b' id=one><!-- <a href="/c"> --><a href=/d>`)
  assert.deepEqual(links.map((l) => l.value), ['/a?x=1&y=2#b', '/d'])
  assert.deepEqual([...ids], ['one'])
})

test('docs links: pages kept, repository files unlinked, mentions linked outside code only', () => {
  const pages = new Set(['jobs', 'api'])
  const text = [
    'See [api.md](api.md) and [jobs](jobs.md#states), [the chart](../charts/crater/values.yaml), [x](https://x.org).',
    'Also docs/jobs.md ("States"), (docs/api.md), but not `docs/jobs.md` nor docs/unknown.md.',
    '```bash',
    'cat docs/jobs.md [a](../b.md)',
    '```',
    '[docs/jobs.md](jobs.md) stays one link.',
    'Named <release>-crater, DIR/\\<name> escaped already, `<code>` kept, {{ not vue }}, <https://x.org> an autolink, `a code span',
    'over two lines <url>` and ``a `tick` docs/jobs.md``.',
  ].join('\n')
  assert.equal(rewriteDoc(text, pages), [
    'See [api.md](./api.md) and [jobs](./jobs.md#states), the chart (`charts/crater/values.yaml`), [x](https://x.org).',
    'Also [docs/jobs.md](./jobs.md) ("States"), ([docs/api.md](./api.md)), but not `docs/jobs.md` nor docs/unknown.md.',
    '```bash',
    'cat docs/jobs.md [a](../b.md)',
    '```',
    '[docs/jobs.md](./jobs.md) stays one link.',
    'Named &lt;release>-crater, DIR/\\<name> escaped already, `<code>` kept, &#123;&#123; not vue }}, <https://x.org> an autolink, `a code span',
    'over two lines <url>` and ``a `tick` docs/jobs.md``.',
  ].join('\n'))
})

test('OpenAPI: operations with parameters and bodies, refs linked to the schemas page', () => {
  const doc = {
    paths: {
      '/api/v1/jobs/{id}': {
        get: {
          tags: ['jobs'], summary: 'A job <with> details',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
          responses: { 200: { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/JobView' } } } } },
        },
      },
    },
    components: { schemas: { JobView: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } } },
  }
  const page = renderApiPage(doc, { tag: 'jobs', slug: 'jobs', title: 'jobs' })
  assert.match(page, /## `GET \/api\/v1\/jobs\/\{id\}` \{#get-api-v1-jobs-id\}/)
  assert.match(page, /\*\*A job &lt;with&gt; details\*\*/)
  assert.match(page, /\| `id` \| path \| integer \(int64\) \| yes \|/)
  assert.match(page, /\| 200 \| OK \| `application\/json`: \[JobView\]\(\.\/schemas\.md#schema-jobview\) \|/)
  const schemas = renderApiPage(doc, { tag: null, slug: 'schemas', title: 'Schemas' })
  assert.match(schemas, /## JobView \{#schema-jobview\}/)
  assert.match(schemas, /\| `tags` \| array of string \| no \|/)
  assert.equal(typeOf({ type: ['string', 'null'], enum: ['a', 'b', null] }, new Map()), 'string: one of `a`, `b` or null')
  assert.deepEqual([...schemaAnchors({ components: { schemas: { Ab: {}, ab: {} } } }).values()], ['schema-ab', 'schema-ab-2'])
})
