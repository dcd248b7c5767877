// Checks a built site: every internal href and src of every HTML page must name a file of the site, and every
// #anchor an id (or <a name>) in the page it points at. External addresses (a scheme such as https: or mailto:,
// or //host) are outside the site and not checked. Exits 1 with the list of broken links.
//   node scripts/check-links.mjs DIR [--base /]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" }

function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, e) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
    return ENTITIES[e.toLowerCase()] ?? all
  })
}

function htmlFiles(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) out.push(...htmlFiles(p))
    else if (name.endsWith('.html')) out.push(p)
  }
  return out
}

/** The attributes of the page's tags that are links (href, src) and the anchors it offers (id, a name). */
export function scan(html) {
  // Text inside <script> and <style> is no markup; comments neither.
  const markup = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b([^>]*)>[\s\S]*?<\/\1>/gi, '<$1$2>')
  const links = []
  const ids = new Set()
  for (const tag of markup.matchAll(/<([a-zA-Z][\w-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    const [, name, attrs] = tag
    for (const a of attrs.matchAll(/\s([\w:-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
      const key = a[1].toLowerCase()
      const value = decodeEntities(a[3] ?? a[4] ?? a[5] ?? '')
      if (key === 'id' || (key === 'name' && name.toLowerCase() === 'a')) ids.add(value)
      else if (key === 'href' || (key === 'src' && name.toLowerCase() !== 'iframe')) links.push({ tag: name.toLowerCase(), value })
    }
  }
  return { links, ids }
}

/** Every broken internal link of the site in `dir`, as {page, link, reason}, sorted. */
export function checkSite(dir, { base = '/' } = {}) {
  const pages = new Map()
  for (const file of htmlFiles(dir)) pages.set(file, scan(readFileSync(file, 'utf8')))
  const problems = []
  for (const [file, { links, ids }] of pages) {
    const page = relative(dir, file).split(sep).join('/')
    const pageUrl = new URL(base.replace(/\/?$/, '/') + page, 'http://site.invalid')
    for (const { value } of links) {
      const link = value.trim()
      if (link === '' || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) continue
      const url = new URL(link, pageUrl)
      let hash
      try {
        hash = decodeURIComponent(url.hash.slice(1))
      } catch {
        problems.push({ page, link, reason: 'anchor is not valid percent-encoding' })
        continue
      }
      let target
      if (url.pathname === pageUrl.pathname) target = file
      else {
        let path
        try {
          path = decodeURIComponent(url.pathname)
        } catch {
          problems.push({ page, link, reason: 'path is not valid percent-encoding' })
          continue
        }
        const baseDir = base.replace(/\/?$/, '/')
        if (!path.startsWith(baseDir)) {
          problems.push({ page, link, reason: `outside the site's base ${baseDir}` })
          continue
        }
        const rel = path.slice(baseDir.length)
        const candidates = rel === '' || rel.endsWith('/') ? [`${rel}index.html`] : [rel, `${rel}.html`]
        target = candidates.map((c) => join(dir, ...c.split('/'))).find((p) => existsSync(p) && statSync(p).isFile())
        if (!target) {
          problems.push({ page, link, reason: 'no such page or file' })
          continue
        }
      }
      if (hash === '') continue
      const t = pages.get(target)
      if (!t) problems.push({ page, link, reason: 'anchor into a file that is not a page' })
      else if (!t.ids.has(hash)) problems.push({ page, link, reason: `no anchor #${hash} in ${relative(dir, target).split(sep).join('/')}` })
    }
  }
  const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0)
  problems.sort((a, b) => cmp(a.page, b.page) || cmp(a.link, b.link))
  return { pages: pages.size, links: [...pages.values()].reduce((n, p) => n + p.links.length, 0), problems }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const b = args.indexOf('--base')
  const base = b >= 0 ? args.splice(b, 2)[1] : '/'
  const dir = args[0]
  if (!dir || !existsSync(dir)) {
    console.error(`usage: check-links.mjs DIR [--base /] (${dir ?? 'no DIR'} does not exist: build the site first)`)
    process.exit(2)
  }
  const { pages, links, problems } = checkSite(dir, { base })
  if (problems.length) {
    console.error(`${problems.length} broken internal links in ${dir}:`)
    for (const p of problems) console.error(`  ${p.page}: ${p.link} (${p.reason})`)
    process.exit(1)
  }
  console.log(`links: ${pages} pages, ${links} links and sources, every internal one resolves`)
}
