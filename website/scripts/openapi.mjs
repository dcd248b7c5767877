// Renders the OpenAPI document as markdown: one page per tag (each operation with its parameters, request body
// and responses) and one page of schemas, every $ref a link to its schema's anchor. Pure: document in, text out.
import { METHODS, slug } from './pages.mjs'

/** Text safe inside a markdown table cell and in a Vue template (VitePress compiles pages as Vue). */
function cell(s) {
  return esc(String(s ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|'))
}

/** Escapes what markdown-it would read as HTML and what Vue would read as an interpolation. */
function esc(s) {
  return String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\{\{/g, '&#123;&#123;')
}

function refName(ref) {
  return decodeURIComponent(ref.split('/').pop())
}

/** Anchors of the schemas page, unique even when two names differ only in case. */
export function schemaAnchors(doc) {
  const anchors = new Map()
  const taken = new Set()
  for (const name of Object.keys(doc.components?.schemas ?? {}).sort()) {
    let a = `schema-${slug(name)}`
    for (let i = 2; taken.has(a); i++) a = `schema-${slug(name)}-${i}`
    taken.add(a)
    anchors.set(name, a)
  }
  return anchors
}

/** A schema as a short type expression, refs linked to the schemas page. */
export function typeOf(schema, anchors, depth = 0) {
  if (!schema) return 'any'
  if (schema.$ref) {
    const name = refName(schema.$ref)
    return anchors.has(name) ? `[${esc(name)}](./schemas.md#${anchors.get(name)})` : esc(name)
  }
  if (depth > 4) return 'object'
  for (const k of ['oneOf', 'anyOf', 'allOf']) {
    if (schema[k]) {
      const parts = schema[k].filter((s) => s.type !== 'null').map((s) => typeOf(s, anchors, depth + 1))
      const joined = parts.join(k === 'allOf' ? ' and ' : ' or ')
      return schema[k].some((s) => s.type === 'null') ? `${joined} or null` : joined
    }
  }
  let types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  const nullable = schema.nullable === true || types.includes('null')
  types = types.filter((t) => t !== 'null')
  let t
  if (types.includes('array') || schema.items) t = `array of ${typeOf(schema.items, anchors, depth + 1)}`
  else if (types.includes('object') || schema.properties || schema.additionalProperties) {
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
      t = `map of string to ${typeOf(schema.additionalProperties, anchors, depth + 1)}`
    } else t = 'object'
  } else if (types.length) t = types.join(' or ')
  else t = 'any'
  if (schema.format) t += ` (${esc(schema.format)})`
  if (schema.enum) t += `: one of ${schema.enum.filter((e) => e !== null).map((e) => `\`${String(e)}\``).join(', ')}`
  return nullable ? `${t} or null` : t
}

function constraints(schema) {
  if (!schema || schema.$ref) return ''
  const c = []
  if (schema.default !== undefined) c.push(`default \`${JSON.stringify(schema.default)}\``)
  for (const [k, label] of [['minimum', '≥'], ['maximum', '≤'], ['minLength', 'length ≥'], ['maxLength', 'length ≤'],
    ['minItems', 'items ≥'], ['maxItems', 'items ≤']]) {
    if (schema[k] !== undefined) c.push(`${label} ${schema[k]}`)
  }
  if (schema.pattern) c.push(`pattern \`${schema.pattern.replace(/`/g, "'").replace(/\|/g, '\\|')}\``)
  return c.join(', ')
}

function operationAnchor(method, path) {
  return `${method}-${slug(path)}`
}

function operations(doc, tag) {
  const ops = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const tags = op.tags?.length ? op.tags : ['other']
      if (tags.includes(tag)) ops.push({ path, method, op, shared: item.parameters ?? [] })
    }
  }
  return ops.sort((a, b) => a.path.localeCompare(b.path) || METHODS.indexOf(a.method) - METHODS.indexOf(b.method))
}

function resolveParam(doc, p) {
  if (p.$ref) return doc.components?.parameters?.[refName(p.$ref)] ?? { name: refName(p.$ref), in: '?' }
  return p
}

function content(c, anchors) {
  const rows = Object.entries(c ?? {}).map(([mt, v]) => `\`${esc(mt)}\`: ${typeOf(v.schema, anchors)}`)
  return rows.join('; ')
}

export function renderApiPage(doc, page) {
  const anchors = schemaAnchors(doc)
  if (page.tag === null) return renderSchemas(doc, anchors)
  const ops = operations(doc, page.tag)
  const out = [`# ${esc(page.title)}`, '']
  if (page.description) out.push(esc(page.description), '')
  out.push(`Operations of the \`${esc(page.tag)}\` tag of the OpenAPI document (\`/q/openapi\`), generated from it at build time.`, '')
  for (const { path, method } of ops) {
    out.push(`- [\`${method.toUpperCase()} ${esc(path)}\`](#${operationAnchor(method, path)})`)
  }
  out.push('')
  for (const { path, method, op, shared } of ops) {
    out.push(`## \`${method.toUpperCase()} ${path}\` {#${operationAnchor(method, path)}}`, '')
    if (op.summary) out.push(`**${esc(op.summary)}**`, '')
    if (op.description) out.push(esc(op.description), '')
    if (op.deprecated) out.push('Deprecated.', '')
    const params = [...shared, ...(op.parameters ?? [])].map((p) => resolveParam(doc, p))
    if (params.length) {
      out.push('| parameter | in | type | required | description |', '|---|---|---|---|---|')
      for (const p of params) {
        const extra = constraints(p.schema)
        out.push(`| \`${cell(p.name)}\` | ${cell(p.in)} | ${typeOf(p.schema, anchors).replace(/\|/g, '\\|')} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)}${extra ? ` ${cell(extra)}` : ''} |`)
      }
      out.push('')
    }
    let body = op.requestBody
    if (body?.$ref) body = doc.components?.requestBodies?.[refName(body.$ref)]
    if (body?.content) {
      out.push(`Request body${body.required ? ' (required)' : ''}: ${content(body.content, anchors)}`, '')
    }
    const responses = Object.entries(op.responses ?? {})
    if (responses.length) {
      out.push('| status | description | body |', '|---|---|---|')
      for (const [code, r0] of responses) {
        const r = r0.$ref ? doc.components?.responses?.[refName(r0.$ref)] ?? {} : r0
        out.push(`| ${cell(code)} | ${cell(r.description)} | ${content(r.content, anchors).replace(/\|/g, '\\|') || '—'} |`)
      }
      out.push('')
    }
    const sec = op.security ?? doc.security
    if (sec && sec.length === 0) out.push('No sign-in needed.', '')
  }
  return out.join('\n')
}

function renderSchemas(doc, anchors) {
  const schemas = doc.components?.schemas ?? {}
  const out = ['# Schemas', '', 'The request and response bodies of the API, from the OpenAPI document\'s components.', '']
  for (const name of [...anchors.keys()]) {
    const s = schemas[name]
    out.push(`## ${esc(name)} {#${anchors.get(name)}}`, '')
    if (s.description) out.push(esc(s.description), '')
    const props = Object.entries(s.properties ?? {})
    if (props.length) {
      const required = new Set(s.required ?? [])
      out.push('| field | type | required | description |', '|---|---|---|---|')
      for (const [p, ps] of props) {
        const extra = constraints(ps)
        out.push(`| \`${cell(p)}\` | ${typeOf(ps, anchors).replace(/\|/g, '\\|')} | ${required.has(p) ? 'yes' : 'no'} | ${cell(ps.description)}${extra ? ` ${cell(extra)}` : ''} |`)
      }
      out.push('')
    } else {
      out.push(`Type: ${typeOf({ ...s, description: undefined }, anchors)}`, '')
    }
  }
  return out.join('\n')
}

export function renderApiIndex(doc, pages) {
  const count = Object.values(doc.paths ?? {}).reduce((n, item) => n + METHODS.filter((m) => item[m]).length, 0)
  const out = [`# API reference`, '', `${esc(doc.info?.title ?? 'API')} ${esc(doc.info?.version ?? '')}: ${esc(doc.info?.description ?? '')}.`, '',
    `Generated at build time from the OpenAPI document the server serves at \`/q/openapi\` (Swagger UI at ` +
    `\`/q/swagger-ui\`): ${count} operations. How to sign in, the error format, amounts and the event stream are in ` +
    `[HTTP API basics](../reference/api.md).`, '', '| tag | operations |', '|---|---|']
  for (const p of pages) {
    if (p.tag === null) continue
    out.push(`| [${esc(p.title)}](./${p.slug}.md) | ${operations(doc, p.tag).length} |`)
  }
  out.push('', `[Schemas](./schemas.md): ${Object.keys(doc.components?.schemas ?? {}).length} request and response bodies.`, '')
  return out.join('\n')
}
