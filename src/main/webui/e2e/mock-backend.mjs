// Minimal stand-in for the Crater API, for working on the console without the real server.
// Serves dist/ with SPA fallback and a fake cluster under /api/v1 (cookie auth, CSRF header check, SSE),
// plus in-memory governance (users, accounts, quota, members, limits, approvals, audit; see mock-governance.mjs)
// and jobs with a simulated lifecycle (see mock-jobs.mjs).
//
//   npm run build && node e2e/mock-backend.mjs          (listens on 127.0.0.1:8123, PORT to change)
//   user "admin" / password "admin" (role admin), user "alice" / "alice" (role user)

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGovernance } from './mock-governance.mjs';
import { createJobs } from './mock-jobs.mjs';

const PORT = Number(process.env.PORT || 8123);
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const GiB = 1024 ** 3;

const MODELS = {
  'nvidia-a100-80gb': { displayName: 'NVIDIA A100 80GB', vendor: 'NVIDIA', resource: 'nvidia.com/gpu', per: 8, count: 4 },
  'nvidia-h100-80gb': { displayName: 'NVIDIA H100 80GB', vendor: 'NVIDIA', resource: 'nvidia.com/gpu', per: 8, count: 2 },
  'ascend-910b': { displayName: 'Huawei Ascend 910B', vendor: 'Huawei', resource: 'huawei.com/Ascend910', per: 8, count: 2 },
  'nvidia-rtx-4090': { displayName: 'NVIDIA GeForce RTX 4090', vendor: 'NVIDIA', resource: 'nvidia.com/gpu', per: 4, count: 2 },
};

const governance = createGovernance(MODELS);
const jobs = createJobs({ accounts: governance.accounts, models: MODELS });

const nodes = new Map();
for (const [model, m] of Object.entries(MODELS)) {
  for (let i = 0; i < m.count; i++) {
    const name = `${model.split('-').slice(-2).join('-')}-${i}`;
    nodes.set(name, {
      name,
      ready: !(model === 'nvidia-rtx-4090' && i === 1),
      schedulable: !(model === 'nvidia-h100-80gb' && i === 1),
      accelerator: { model, displayName: m.displayName, vendor: m.vendor, resource: m.resource, total: m.per, allocated: i % 3 },
      cpu: { totalMilli: 96000, allocatedMilli: 4000 + i * 2500 },
      memory: { totalBytes: 768 * GiB, allocatedBytes: (16 + i * 24) * GiB },
      pods: 3 + i,
      labels: { 'crater.dev/accelerator': model },
    });
  }
}
nodes.set('cpu-0', {
  name: 'cpu-0',
  ready: true,
  schedulable: true,
  accelerator: null,
  cpu: { totalMilli: 64000, allocatedMilli: 500 },
  memory: { totalBytes: 256 * GiB, allocatedBytes: 2 * GiB },
  pods: 12,
  labels: {},
});

function accelerators() {
  const byModel = new Map();
  for (const n of nodes.values()) {
    const a = n.accelerator;
    if (!a) continue;
    const s = byModel.get(a.model) ?? { model: a.model, displayName: a.displayName, vendor: a.vendor, resource: a.resource, nodes: 0, total: 0, allocated: 0, free: 0 };
    s.nodes += 1;
    s.total += a.total;
    s.allocated += a.allocated;
    s.free = s.total - s.allocated;
    byModel.set(a.model, s);
  }
  return [...byModel.values()];
}

const sessions = new Map(); // token -> username
let eventId = 0;
const streams = new Set();

function cookies(req) {
  const out = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k) out[k] = v.join('=');
  }
  return out;
}

function currentUser(req) {
  const name = sessions.get(cookies(req).mock_access);
  const user = name ? governance.users.get(name) : undefined;
  return user && !user.disabled ? user : null;
}

function send(res, status, body, headers = {}) {
  const text = body === undefined || status === 204 ? '' : JSON.stringify(body);
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  res.writeHead(status, { 'Content-Type': type, ...headers });
  res.end(text);
}

function problem(res, status, code, title, detail, headers) {
  send(res, status, { type: 'about:blank', title, status, detail, code }, headers);
}

async function body(req, raw = false) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const text = Buffer.concat(chunks).toString('utf8');
  if (raw) return text;
  try {
    return JSON.parse(text || '{}');
  } catch {
    return {};
  }
}

const failures = new Map();

function startSession(res, username) {
  const token = Math.random().toString(36).slice(2);
  sessions.set(token, username);
  send(res, 200, { accessToken: token, expiresIn: 900, user: governance.sessionUser(governance.users.get(username)) }, {
    'Set-Cookie': [`mock_access=${token}; Path=/; HttpOnly; SameSite=Strict`, `mock_refresh=${token}; Path=/api/v1/auth; HttpOnly; SameSite=Strict`],
  });
}

async function api(req, res, path) {
  if (req.method !== 'GET' && req.headers['x-requested-with'] !== 'crater') {
    return problem(res, 403, 'CsrfHeaderMissing', 'Forbidden', 'X-Requested-With header missing');
  }
  if (path === '/api/v1/auth/login' && req.method === 'POST') {
    const { username, password } = await body(req);
    const n = failures.get(username) ?? 0;
    if (n >= 5) return problem(res, 429, 'TooManyAttempts', 'Too many attempts', 'Slow down', { 'Retry-After': '30' });
    if (!governance.authenticate(username, password)) {
      failures.set(username, n + 1);
      return problem(res, 401, 'InvalidCredentials', 'Unauthorized', 'Wrong username or password');
    }
    failures.delete(username);
    return startSession(res, username);
  }
  if (path === '/api/v1/auth/refresh' && req.method === 'POST') {
    const name = sessions.get(cookies(req).mock_refresh);
    if (!name) return problem(res, 401, 'Unauthorized', 'Unauthorized', 'No session');
    return startSession(res, name);
  }
  if (path === '/api/v1/auth/logout' && req.method === 'POST') {
    sessions.delete(cookies(req).mock_access);
    res.writeHead(204, { 'Set-Cookie': ['mock_access=; Path=/; Max-Age=0', 'mock_refresh=; Path=/api/v1/auth; Max-Age=0'] });
    return res.end();
  }
  const user = currentUser(req);
  if (!user) return problem(res, 401, 'Unauthorized', 'Unauthorized', 'Sign in first');
  if (path === '/api/v1/auth/me') return send(res, 200, governance.sessionUser(user));
  if (path === '/api/v1/cluster/nodes') return send(res, 200, { items: [...nodes.values()] });
  if (path === '/api/v1/cluster/accelerators') return send(res, 200, { items: accelerators() });
  if (path === '/api/v1/events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
    return undefined;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const answer =
    (await jobs.handle(req, url, user, (raw) => body(req, raw))) ??
    (await governance.handle(req, url, user, (raw) => body(req, raw)));
  if (answer) {
    if (answer.status === 204) {
      res.writeHead(204);
      return res.end();
    }
    return send(res, answer.status, answer.body);
  }
  return problem(res, 404, 'NotFound', 'Not Found', `No route for ${path}`);
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

async function staticFile(res, path) {
  const safe = normalize(path).replace(/^(\.\.[/\\])+/, '');
  let file = join(DIST, safe);
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch {
    file = join(DIST, 'index.html');
  }
  res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(await readFile(file));
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const handler = url.pathname.startsWith('/api/') ? api(req, res, url.pathname) : staticFile(res, url.pathname);
  handler.catch((e) => {
    console.error(e);
    if (!res.headersSent) problem(res, 500, 'ServerError', 'Internal error', String(e));
  });
});

// Every few seconds one node's allocation changes and is announced on the event stream.
const ticker = setInterval(() => {
  const list = [...nodes.values()].filter((n) => n.accelerator);
  const node = list[Math.floor(Math.random() * list.length)];
  node.accelerator.allocated = Math.floor(Math.random() * (node.accelerator.total + 1));
  node.pods = 1 + node.accelerator.allocated;
  eventId += 1;
  const frame = `id: ${eventId}\nevent: node\ndata: ${JSON.stringify({ type: 'updated', node })}\n\n`;
  for (const s of streams) s.write(frame);
}, 3000);

server.listen(PORT, '127.0.0.1', () => console.log(`mock Crater API on http://127.0.0.1:${PORT}`));

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    clearInterval(ticker);
    for (const s of streams) s.end();
    server.close(() => process.exit(0));
  });
}
