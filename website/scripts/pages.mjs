// What the site is made of, read from its sources: docs/*.md (the reference) and the OpenAPI document (the API
// reference). The VitePress config (sidebar) and scripts/prepare.mjs (the generated pages) both use it.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const WEBSITE = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const REPO = resolve(WEBSITE, '..')
export const DOCS = join(REPO, 'docs')
// `mvn package` writes it (quarkus.smallrye-openapi.store-schema-directory); CRATER_OPENAPI names another file.
export const OPENAPI = process.env.CRATER_OPENAPI
  ? resolve(process.env.CRATER_OPENAPI)
  : join(REPO, 'target', 'openapi', 'openapi.json')

/** The reference pages: one per docs/*.md, in this order first, then any other by name. */
const ORDER = ['jobs', 'interactive', 'storage', 'assets', 'cli', 'api', 'deploy', 'governance', 'identity', 'accounting', 'catalogue',
  'notifications', 'monitoring', 'agents', 'architecture', 'simulator', 'benchmarks']

export function referencePages() {
  const slugs = readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3))
  const rank = (s) => (ORDER.includes(s) ? ORDER.indexOf(s) : ORDER.length)
  slugs.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  return slugs.map((slug) => {
    const text = readFileSync(join(DOCS, `${slug}.md`), 'utf8')
    const h1 = text.match(/^# (.+)$/m)
    return { slug, title: h1 ? h1[1].replace(/`/g, '').split(':')[0].trim() : slug, file: join(DOCS, `${slug}.md`) }
  })
}

export function openapiDocument() {
  if (!existsSync(OPENAPI)) {
    throw new Error(`${OPENAPI} is missing: the API reference is rendered from the OpenAPI document that ` +
      '`make build` (mvn package) writes there; run it first, or set CRATER_OPENAPI to the document')
  }
  return JSON.parse(readFileSync(OPENAPI, 'utf8'))
}

export function slug(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'x'
}

/** The API pages: one per tag of the document's operations (untagged ones under "other"), then the schemas. */
export function apiPages() {
  const doc = openapiDocument()
  const tags = new Map()
  for (const t of doc.tags ?? []) tags.set(t.name, t.description ?? '')
  const used = new Set()
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.includes(method)) continue
      for (const t of op.tags?.length ? op.tags : ['other']) used.add(t)
    }
  }
  const pages = [...used].sort().map((t) => ({ tag: t, slug: slug(t), title: t, description: tags.get(t) ?? '' }))
  return [...pages, { tag: null, slug: 'schemas', title: 'Schemas', description: '' }]
}

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']
