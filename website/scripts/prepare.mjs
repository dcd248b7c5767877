// Writes the generated part of the site's source before `vitepress build`; nothing it writes is committed
// (.gitignore): src/reference/ (docs/*.md as they are, with the link rules below), src/api/ (the OpenAPI document
// rendered per tag) and their copies under src/zh/, so the language switch always lands on a page.
//
// Link rules for docs/*.md (the site shows docs/ only, not the repository):
//  1. a link to another docs/*.md page (optionally with #anchor) is kept: VitePress resolves it;
//  2. a link to anything else in the repository (`../src/...`, `../README.md`, a folder) is replaced by its text
//     followed by the path in code form, since the site has no copy of that file;
//  3. an http(s): or mailto: link is kept and is not checked (it is outside the site);
//  4. a plain mention of docs/NAME.md outside code (the docs' own way of pointing at each other) becomes a link
//     to that page; inside `code` or a fenced block it stays text.
// And, since VitePress compiles every page as a Vue template: outside code, a `<` that is not a markdown autolink
// (`<https://…>`) is text (`&lt;`, so `<release>-crater` shows as written) and `{{` is no interpolation.
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { join, posix } from 'node:path'
import { WEBSITE, DOCS, referencePages, apiPages, openapiDocument } from './pages.mjs'
import { renderApiPage, renderApiIndex } from './openapi.mjs'

const SRC = join(WEBSITE, 'src')

const ZH_NOTE = {
  reference: '::: info 英文原文\n本参考页面尚未翻译，以下为英文原文。任务导向的说明见[用户指南](../guide/jobs.md)与[管理员指南](../admin/install.md)。\n:::\n',
  api: '::: info 英文原文\nAPI 参考由服务器的 OpenAPI 文档生成，内容为英文。\n:::\n',
}

/** Rewrites one docs/*.md file's text for the site (the rules above). `pages` is the set of docs page names. */
export function rewriteDoc(text, pages) {
  const out = []
  let fence = null
  let para = []
  const flush = () => {
    if (para.length) out.push(rewriteParagraph(para.join('\n'), pages))
    para = []
  }
  for (const line of text.split('\n')) {
    const f = line.match(/^\s*(```+|~~~+)/)
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = null
      out.push(line)
    } else if (f) {
      flush()
      fence = f[1]
      out.push(line)
    } else if (line.trim() === '') {
      flush()
      out.push(line)
    } else {
      para.push(line)
    }
  }
  flush()
  return out.join('\n')
}

/** One paragraph: its inline code spans (`...`, ``...``, also across lines) kept, the text between rewritten. */
function rewriteParagraph(p, pages) {
  let out = ''
  let last = 0
  for (const m of p.matchAll(/(`+)[\s\S]*?[^`]\1(?!`)|(`+)\2(?!`)/g)) {
    out += rewriteText(p.slice(last, m.index), pages) + m[0]
    last = m.index + m[0].length
  }
  return out + rewriteText(p.slice(last), pages)
}

function rewriteText(s, pages) {
  // Rules 1-3: markdown links [text](target).
  s = s.replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, (all, label, target) => {
    if (/^(https?:|mailto:|#)/.test(target)) return all
    const [path, anchor] = target.split('#')
    const m = path.match(/^(?:\.\/|\.\.\/docs\/)?([A-Za-z0-9._-]+)\.md$/)
    if (m && pages.has(m[1])) return `[${label}](./${m[1]}.md${anchor ? `#${anchor}` : ''})`
    const repoPath = posix.normalize(posix.join('docs', path))
    return label === repoPath || label === `\`${repoPath}\`` ? `\`${repoPath}\`` : `${label} (\`${repoPath}\`)`
  })
  s = s.replace(/(?<!\\)<(?!(https?:|mailto:)[^>\s]*>)/g, '&lt;').replace(/\{\{/g, '&#123;&#123;')
  // Rule 4: plain mentions of docs/NAME.md, not already inside a link's text or target.
  return s.replace(/(?<![\w/.[-]|\]\()docs\/([A-Za-z0-9_-]+)\.md(?![\w\]])/g, (all, name) =>
    pages.has(name) ? `[docs/${name}.md](./${name}.md)` : all)
}

function write(file, text) {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, text)
}

/** Puts the note right after the page's first heading. */
function withNote(text, note) {
  const lines = text.split('\n')
  const h1 = lines.findIndex((l) => /^# /.test(l))
  lines.splice(h1 + 1, 0, '', note)
  return lines.join('\n')
}

function main() {
  for (const d of ['reference', 'api', 'zh/reference', 'zh/api']) rmSync(join(SRC, d), { recursive: true, force: true })

  const refs = referencePages()
  const names = new Set(refs.map((p) => p.slug))
  const list = refs.map((p) => `- [${p.title}](./${p.slug}.md) (\`docs/${p.slug}.md\`)`).join('\n')
  write(join(SRC, 'reference/index.md'), `# Reference\n\nThese pages are the repository's \`docs/\` folder, as it is ` +
    `for this version of Crater: how each part works, its settings, limits and API calls. The guides link into them.\n\n${list}\n`)
  write(join(SRC, 'zh/reference/index.md'), `# 参考\n\n这些页面即代码仓库的 \`docs/\` 目录（与本版本 Crater 一致）：各部分如何工作、` +
    `设置、限制与 API 调用。参考页面尚未翻译，为英文原文；指南页面会链接到这里。\n\n${list}\n`)
  for (const p of refs) {
    const text = rewriteDoc(readFileSync(p.file, 'utf8'), names)
    write(join(SRC, 'reference', `${p.slug}.md`), text)
    write(join(SRC, 'zh/reference', `${p.slug}.md`), withNote(text, ZH_NOTE.reference))
  }

  const doc = openapiDocument()
  const pages = apiPages()
  const index = renderApiIndex(doc, pages)
  write(join(SRC, 'api/index.md'), index)
  write(join(SRC, 'zh/api/index.md'), withNote(index, ZH_NOTE.api))
  for (const p of pages) {
    const text = renderApiPage(doc, p)
    write(join(SRC, 'api', `${p.slug}.md`), text)
    write(join(SRC, 'zh/api', `${p.slug}.md`), withNote(text, ZH_NOTE.api))
  }
  console.log(`prepared ${refs.length} reference pages from ${DOCS} and ${pages.length} API pages`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
