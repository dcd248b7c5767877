// Governance part of the mock Crater API (users, accounts, quota, members, limits, approvals, audit,
// profile, tokens, SSH keys, notifications, accelerator catalogue). In memory, for console development only.

const GiB = 1024 ** 3;

function problem(status, code, title, detail, extra = {}) {
  return { status, body: { type: 'about:blank', title, status, detail, code, ...extra } };
}
const ok = (body, status = 200) => ({ status, body });
const noContent = () => ({ status: 204 });
const now = () => new Date().toISOString();
let seq = 1000;
const nextId = (p) => `${p}-${++seq}`;

// ---- quantities ----
const FACTORS = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
export function toMilli(q) {
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q ?? '').trim());
  if (!m) return null;
  return Math.round(Number(m[1]) * FACTORS[m[2] ?? ''] * 1000);
}
function fromMilli(resource, milli) {
  if (resource === 'memory' && milli % (GiB * 1000) === 0) return `${milli / GiB / 1000}Gi`;
  if (milli % 1000 === 0) return String(milli / 1000);
  return `${milli}m`;
}

export function createGovernance(models) {
  const catalogue = new Map(
    Object.entries(models).map(([key, m]) => [
      key,
      { key, displayName: m.displayName, vendor: m.vendor, resource: m.resource, labelKey: 'crater.dev/accelerator', labelValue: key, restricted: key === 'nvidia-h100-80gb' },
    ]),
  );
  const users = new Map();
  const accounts = new Map();
  const approvals = [];
  const audit = [];
  const denied = [];
  let uid = 2000;
  let gid = 3000;

  const emptyLimits = () => ({ resources: {}, maxRunningJobs: null, maxInteractiveSessions: null });

  function addAccount(slug, name, kind, expiresAt = null) {
    const a = { slug, name, kind, gid: ++gid, expiresAt, quota: new Map(), members: new Map(), defaultLimits: emptyLimits(), grants: [] };
    accounts.set(slug, a);
    return a;
  }
  function addUser({ username, displayName, email = null, password, role = 'user' }) {
    // Personal account slugs are DNS labels, like the server's: "job.runner" → "u-job-runner".
    const slug = `u-${username.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`;
    const u = { id: nextId('u'), username, slug, uid: ++uid, displayName, email, role, disabled: false, createdAt: now(), defaultAccount: slug, password, tokens: [], sshKeys: [], notifications: [] };
    users.set(username, u);
    const personal = addAccount(u.slug, displayName || username, 'personal');
    personal.members.set(username, { role: 'admin', fileAccess: 'rw', limits: emptyLimits() });
    return u;
  }
  addUser({ username: 'admin', displayName: 'Cluster Admin', password: 'admin', role: 'admin' });
  addUser({ username: 'alice', displayName: 'Alice', password: 'alice' });

  const publicUser = (u) => {
    const { password: _p, tokens: _t, sshKeys: _s, notifications: _n, ...rest } = u;
    return rest;
  };
  const sessionUser = (u) => ({ id: u.id, username: u.username, displayName: u.displayName, role: u.role });
  const isAdmin = (u) => u.role === 'admin';
  const canManage = (u, a) => isAdmin(u) || a.members.get(u.username)?.role === 'admin';

  function record(actor, account, action, targetType, targetId, before, after, req) {
    audit.unshift({ id: nextId('audit'), at: now(), actor: actor.username, account, action, targetType, targetId, before, after, result: 'ok', clientAddress: req.socket.remoteAddress ?? '127.0.0.1' });
  }
  function deny(actor, req, code) {
    denied.unshift({ id: nextId('denied'), at: now(), actor: actor?.username ?? null, method: req.method, path: req.url, code, clientAddress: req.socket.remoteAddress ?? '127.0.0.1' });
  }
  function notify(username, kind, message, link) {
    users.get(username)?.notifications.unshift({ id: nextId('n'), kind, message, link, createdAt: now(), readAt: null });
  }

  function grantedMilli(a, resource) {
    const t = Date.now();
    return a.grants.filter((g) => g.resource === resource && Date.parse(g.until) > t).reduce((s, g) => s + g.milli, 0);
  }
  function displayName(resource) {
    if (resource === 'cpu') return 'CPU';
    if (resource === 'memory') return 'Memory';
    return catalogue.get(resource)?.displayName ?? resource;
  }
  function quotaLines(a) {
    const lines = [];
    for (const [resource, q] of a.quota) {
      const granted = grantedMilli(a, resource);
      const used = resource === 'nvidia-a100-80gb' ? Math.min(q.maxMilli, 6000) : 0;
      const borrowed = Math.max(0, used - (q.guaranteedMilli + granted));
      lines.push({
        resource,
        displayName: displayName(resource),
        guaranteed: fromMilli(resource, q.guaranteedMilli),
        max: fromMilli(resource, q.maxMilli),
        used: fromMilli(resource, used),
        granted: fromMilli(resource, granted),
        borrowed: fromMilli(resource, borrowed),
        guaranteedMilli: q.guaranteedMilli,
        maxMilli: q.maxMilli,
        usedMilli: used,
        grantedMilli: granted,
        borrowedMilli: borrowed,
      });
    }
    return lines;
  }
  const accountBody = (a, u) => ({ slug: a.slug, name: a.name, kind: a.kind, gid: a.gid, expiresAt: a.expiresAt, myRole: a.members.get(u.username)?.role ?? null, quota: quotaLines(a) });
  const summary = (a) => ({ slug: a.slug, name: a.name, kind: a.kind, gid: a.gid, expiresAt: a.expiresAt, members: a.members.size });

  function effective(a, m) {
    const d = a.defaultLimits;
    return {
      resources: { ...d.resources, ...m.limits.resources },
      maxRunningJobs: m.limits.maxRunningJobs ?? d.maxRunningJobs,
      maxInteractiveSessions: m.limits.maxInteractiveSessions ?? d.maxInteractiveSessions,
    };
  }
  function memberBody(a, username) {
    const m = a.members.get(username);
    const u = users.get(username);
    return { username, displayName: u?.displayName ?? username, role: m.role, fileAccess: m.fileAccess, limits: m.limits, effectiveLimits: effective(a, m) };
  }
  function validLimits(body) {
    const errors = [];
    const resources = {};
    for (const [k, v] of Object.entries(body?.resources ?? {})) {
      if (k !== 'cpu' && k !== 'memory' && !catalogue.has(k)) errors.push({ field: `resources.${k}`, message: 'unknown resource' });
      else if (toMilli(v) === null) errors.push({ field: `resources.${k}`, message: 'not a valid quantity' });
      else resources[k] = String(v);
    }
    for (const f of ['maxRunningJobs', 'maxInteractiveSessions']) {
      const v = body?.[f];
      if (v !== null && v !== undefined && !(Number.isInteger(v) && v >= 0)) errors.push({ field: f, message: 'must be a non-negative whole number' });
    }
    return { errors, limits: { resources, maxRunningJobs: body?.maxRunningJobs ?? null, maxInteractiveSessions: body?.maxInteractiveSessions ?? null } };
  }
  const invalid = (errors) => problem(400, 'ValidationFailed', 'Bad request', `${errors.length} invalid field(s)`, { errors });

  function page(items, url, defaultLimit = 50) {
    const limit = Number(url.searchParams.get('limit') || defaultLimit);
    const start = Number(url.searchParams.get('cursor') || 0);
    const slice = items.slice(start, start + limit);
    return { items: slice, nextCursor: start + limit < items.length ? String(start + limit) : null };
  }

  function approvalBody(x) {
    const r = users.get(x.requester);
    const v = x.reviewer ? users.get(x.reviewer) : null;
    return { ...x, requester: { username: r.username, displayName: r.displayName }, reviewer: v ? { username: v.username, displayName: v.displayName } : null };
  }
  const canReview = (u, x) => isAdmin(u) || (x.kind !== 'quota-grant' && x.kind !== 'model-access' && canManage(u, accounts.get(x.account) ?? { members: new Map() }));

  /** Handles governance routes; returns null when the route is not one of them. */
  async function handle(req, url, me, readBody) {
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const method = req.method;
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const forbidden = (code = 'Forbidden') => {
      deny(me, req, code);
      return problem(403, code, 'Forbidden', 'You are not allowed to do this');
    };

    // ---- /me ----
    if (parts[0] === 'me') {
      const meBody = () => {
        const mine = [...accounts.values()].filter((a) => a.members.has(me.username));
        return { ...publicUser(me), accounts: mine.map((a) => ({ slug: a.slug, name: a.name, kind: a.kind, role: a.members.get(me.username).role, fileAccess: a.members.get(me.username).fileAccess, expiresAt: a.expiresAt })) };
      };
      if (parts.length === 1 && method === 'GET') return ok(meBody());
      if (parts.length === 1 && method === 'PATCH') {
        const b = await readBody();
        if (typeof b.displayName === 'string') me.displayName = b.displayName;
        if (typeof b.email === 'string') me.email = b.email;
        return ok(meBody());
      }
      if (parts[1] === 'password' && method === 'POST') {
        const b = await readBody();
        if (b.currentPassword !== me.password) return problem(401, 'InvalidCredentials', 'Unauthorized', 'Wrong current password');
        me.password = b.newPassword;
        return noContent();
      }
      if (parts[1] === 'tokens') {
        if (parts.length === 2 && method === 'GET') return ok({ items: me.tokens });
        if (parts.length === 2 && method === 'POST') {
          const b = await readBody();
          if (!b.name) return invalid([{ field: 'name', message: 'must not be blank' }]);
          const secret = `crt_${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 14)}`;
          const tok = { id: nextId('tok'), name: b.name, prefix: secret.slice(0, 8), expiresAt: b.expiresAt ?? null, lastUsedAt: null, createdAt: now() };
          me.tokens.push(tok);
          return ok({ ...tok, token: secret }, 201);
        }
        if (parts.length === 3 && method === 'DELETE') {
          me.tokens = me.tokens.filter((t) => t.id !== parts[2]);
          return noContent();
        }
      }
      if (parts[1] === 'ssh-keys') {
        if (parts.length === 2 && method === 'GET') return ok({ items: me.sshKeys });
        if (parts.length === 2 && method === 'POST') {
          const b = await readBody();
          const m = /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp256)\s+([A-Za-z0-9+/=]{20,})(\s.*)?$/.exec(String(b.publicKey ?? '').trim());
          if (!m) return problem(400, 'InvalidSshKey', 'Bad request', 'Expected "<type> <base64> [comment]".');
          const key = { id: nextId('ssh'), name: b.name, type: m[1], fingerprint: `SHA256:${Buffer.from(m[2]).toString('base64').slice(0, 43)}`, createdAt: now(), lastUsedAt: null };
          me.sshKeys.push(key);
          return ok(key, 201);
        }
        if (parts.length === 3 && method === 'DELETE') {
          me.sshKeys = me.sshKeys.filter((k) => k.id !== parts[2]);
          return noContent();
        }
      }
      if (parts[1] === 'notifications') {
        if (parts.length === 2 && method === 'GET') return ok({ items: me.notifications });
        if (parts.length === 4 && parts[3] === 'read' && method === 'POST') {
          const n = me.notifications.find((x) => x.id === parts[2]);
          if (n && !n.readAt) n.readAt = now();
          return noContent();
        }
      }
      return null;
    }

    // ---- catalogue ----
    if (parts[0] === 'accelerator-models') {
      if (parts.length === 1 && method === 'GET') return ok({ items: [...catalogue.values()] });
      if (parts.length === 2 && method === 'PATCH') {
        if (!isAdmin(me)) return forbidden();
        const m = catalogue.get(parts[1]);
        if (!m) return problem(404, 'NotFound', 'Not Found', 'No such model');
        const before = { ...m };
        const b = await readBody();
        for (const f of ['displayName', 'vendor', 'restricted']) if (b[f] !== undefined) m[f] = b[f];
        record(me, null, 'accelerator-model.update', 'accelerator-model', m.key, before, { ...m }, req);
        return ok(m);
      }
      return null;
    }

    // ---- users ----
    if (parts[0] === 'users') {
      if (!isAdmin(me)) return forbidden();
      if (parts.length === 1 && method === 'GET') {
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        const list = [...users.values()].filter((u) => !q || `${u.username} ${u.displayName} ${u.email ?? ''}`.toLowerCase().includes(q)).map(publicUser);
        return ok(page(list, url));
      }
      if (parts.length === 1 && method === 'POST') {
        const b = await readBody();
        const errors = [];
        if (!/^[a-z][a-z0-9._-]{1,31}$/.test(b.username ?? '')) errors.push({ field: 'username', message: 'must be 2-32 lower-case letters, digits, dots, dashes' });
        else if (users.has(b.username)) return problem(409, 'UserExists', 'Conflict', `User ${b.username} already exists`);
        if (!b.displayName) errors.push({ field: 'displayName', message: 'must not be blank' });
        if (b.password && b.password.length < 12) errors.push({ field: 'password', message: 'must have at least 12 characters' });
        if (errors.length) return invalid(errors);
        const generated = b.password ? undefined : `gen-${Math.random().toString(36).slice(2, 14)}`;
        const u = addUser({ username: b.username, displayName: b.displayName, email: b.email ?? null, password: b.password || generated, role: b.role ?? 'user' });
        record(me, null, 'user.create', 'user', u.username, null, publicUser(u), req);
        return ok(generated ? { user: publicUser(u), password: generated } : { user: publicUser(u) }, 201);
      }
      if (parts.length === 2 && parts[1] === 'import' && method === 'POST') {
        const text = await readBody(true);
        const lines = text.split(/\r?\n/);
        const created = [];
        const refused = [];
        lines.slice(1).forEach((line, i) => {
          if (!line.trim()) return;
          const [username, displayName, email, password, account, accountRole] = line.split(',').map((s) => s.trim());
          const n = i + 2;
          if (!username) return refused.push({ line: n, username: null, reason: 'username is required' });
          if (users.has(username)) return refused.push({ line: n, username, reason: 'username already exists' });
          const generated = password ? null : `gen-${Math.random().toString(36).slice(2, 14)}`;
          addUser({ username, displayName: displayName || username, email: email || null, password: password || generated });
          if (account && accounts.has(account)) accounts.get(account).members.set(username, { role: accountRole === 'admin' ? 'admin' : 'member', fileAccess: 'rw', limits: emptyLimits() });
          created.push({ line: n, username, password: generated });
        });
        return ok({ created, refused });
      }
      const u = users.get(parts[1]);
      if (!u) return problem(404, 'NotFound', 'Not Found', `No user ${parts[1]}`);
      if (parts.length === 2 && method === 'PATCH') {
        const before = publicUser(u);
        const b = await readBody();
        for (const f of ['displayName', 'email', 'role', 'disabled']) if (b[f] !== undefined) u[f] = b[f];
        record(me, null, 'user.update', 'user', u.username, before, publicUser(u), req);
        return ok(publicUser(u));
      }
      if (parts.length === 3 && parts[2] === 'password-reset' && method === 'POST') {
        u.password = `gen-${Math.random().toString(36).slice(2, 14)}`;
        record(me, null, 'user.password-reset', 'user', u.username, null, null, req);
        return ok({ password: u.password });
      }
      return null;
    }

    // ---- accounts ----
    if (parts[0] === 'accounts') {
      if (parts.length === 1 && method === 'GET') {
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        const list = [...accounts.values()]
          .filter((a) => isAdmin(me) || a.members.has(me.username))
          .filter((a) => !q || `${a.slug} ${a.name}`.toLowerCase().includes(q))
          .map(summary);
        return ok(page(list, url));
      }
      if (parts.length === 1 && method === 'POST') {
        if (!isAdmin(me)) return forbidden();
        const b = await readBody();
        if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(b.slug ?? '')) return invalid([{ field: 'slug', message: 'invalid slug' }]);
        if (accounts.has(b.slug)) return problem(409, 'AccountExists', 'Conflict', `Account ${b.slug} already exists`);
        const a = addAccount(b.slug, b.name || b.slug, 'team', b.expiresAt ?? null);
        record(me, a.slug, 'account.create', 'account', a.slug, null, summary(a), req);
        return ok(accountBody(a, me), 201);
      }
      const a = accounts.get(parts[1]);
      if (!a) return problem(404, 'NotFound', 'Not Found', `No account ${parts[1]}`);
      if (!isAdmin(me) && !a.members.has(me.username)) return forbidden();
      if (parts.length === 2 && method === 'GET') return ok(accountBody(a, me));
      if (parts.length === 2 && method === 'PATCH') {
        if (!canManage(me, a)) return forbidden();
        const b = await readBody();
        if (b.name !== undefined) a.name = b.name;
        if (b.expiresAt !== undefined) a.expiresAt = b.expiresAt;
        return ok(accountBody(a, me));
      }
      if (parts[2] === 'quota' && parts.length === 3 && method === 'PUT') {
        if (!isAdmin(me)) return forbidden();
        const b = await readBody();
        const errors = [];
        const next = new Map();
        (b.items ?? []).forEach((it, i) => {
          if (it.resource !== 'cpu' && it.resource !== 'memory' && !catalogue.has(it.resource)) errors.push({ field: `items[${i}].resource`, message: 'unknown resource' });
          const g = toMilli(it.guaranteed);
          const m = toMilli(it.max);
          if (g === null) errors.push({ field: `items[${i}].guaranteed`, message: 'not a valid quantity' });
          if (m === null) errors.push({ field: `items[${i}].max`, message: 'not a valid quantity' });
          else if (g !== null && m < g) errors.push({ field: `items[${i}].max`, message: 'must not be less than guaranteed' });
          next.set(it.resource, { guaranteedMilli: g, maxMilli: m });
        });
        if (errors.length) return invalid(errors);
        const before = quotaLines(a);
        a.quota = next;
        record(me, a.slug, 'account.quota.update', 'account', a.slug, { quota: before }, { quota: quotaLines(a) }, req);
        return ok(accountBody(a, me));
      }
      if (parts[2] === 'limits' && parts.length === 3) {
        if (method === 'GET') return ok(a.defaultLimits);
        if (method === 'PUT') {
          if (!canManage(me, a)) return forbidden();
          const { errors, limits } = validLimits(await readBody());
          if (errors.length) return invalid(errors);
          a.defaultLimits = limits;
          return ok(limits);
        }
      }
      if (parts[2] === 'members') {
        if (parts.length === 3 && method === 'GET') return ok({ items: [...a.members.keys()].map((u) => memberBody(a, u)) });
        const username = parts[3];
        if (parts.length === 4 && method === 'PUT') {
          if (!canManage(me, a)) return forbidden();
          if (!users.has(username)) return problem(404, 'UserNotFound', 'Not Found', `No user ${username}`);
          const b = await readBody();
          const existing = a.members.get(username);
          a.members.set(username, { role: b.role === 'admin' ? 'admin' : 'member', fileAccess: b.fileAccess === 'ro' ? 'ro' : 'rw', limits: existing?.limits ?? emptyLimits() });
          record(me, a.slug, existing ? 'member.update' : 'member.add', 'member', username, existing ? { role: existing.role } : null, { role: b.role }, req);
          if (!existing) notify(username, 'member-added', `You were added to ${a.name}.`, `/accounts/${a.slug}`);
          return ok(memberBody(a, username));
        }
        if (parts.length === 4 && method === 'DELETE') {
          if (!canManage(me, a)) return forbidden();
          a.members.delete(username);
          return noContent();
        }
        if (parts.length === 5 && parts[4] === 'limits') {
          const m = a.members.get(username);
          if (!m) return problem(404, 'NotFound', 'Not Found', `${username} is not a member`);
          if (method === 'GET') return ok(m.limits);
          if (method === 'PUT') {
            if (!canManage(me, a)) return forbidden();
            const { errors, limits } = validLimits(await readBody());
            if (errors.length) return invalid(errors);
            m.limits = limits;
            return ok(limits);
          }
        }
      }
      return null;
    }

    // ---- approvals ----
    if (parts[0] === 'approvals') {
      if (parts.length === 1 && method === 'GET') {
        const scope = url.searchParams.get('scope') ?? 'mine';
        const state = url.searchParams.get('state');
        const list = approvals
          .filter((x) => (scope === 'review' ? canReview(me, x) && x.requester !== me.username : x.requester === me.username))
          .filter((x) => !state || x.state === state)
          .map(approvalBody);
        return ok(page(list, url));
      }
      if (parts.length === 1 && method === 'POST') {
        const b = await readBody();
        const errors = [];
        if (!b.reason) errors.push({ field: 'reason', message: 'must not be blank' });
        if (b.kind === 'quota-grant') {
          if (!accounts.get(b.account)?.members.has(me.username) && !isAdmin(me)) return forbidden();
          if (toMilli(b.amount) === null || toMilli(b.amount) <= 0) errors.push({ field: 'amount', message: 'must be a positive quantity' });
          if (!(Date.parse(b.until) > Date.now())) errors.push({ field: 'until', message: 'must be in the future' });
        } else if (b.kind === 'model-access') {
          if (!catalogue.has(b.model)) errors.push({ field: 'model', message: 'unknown model' });
        } else if (b.kind === 'job-lock') {
          if (!b.jobId) errors.push({ field: 'jobId', message: 'must not be blank' });
        } else errors.push({ field: 'kind', message: 'unknown kind' });
        if (errors.length) return invalid(errors);
        const x = { id: nextId('apr'), kind: b.kind, state: 'pending', account: b.account ?? me.defaultAccount, requester: me.username, resource: b.resource ?? null, amount: b.amount ?? null, until: b.until ?? null, model: b.model ?? null, jobId: b.jobId ?? null, reason: b.reason, reviewer: null, comment: null, createdAt: now(), decidedAt: null };
        approvals.unshift(x);
        for (const u of users.values()) if (isAdmin(u) && u.username !== me.username) notify(u.username, 'approval-requested', `${me.displayName} requested a ${b.kind}.`, '/approvals');
        return ok(approvalBody(x), 201);
      }
      const x = approvals.find((y) => y.id === parts[1]);
      if (!x) return problem(404, 'NotFound', 'Not Found', 'No such request');
      if (parts.length === 3 && method === 'POST') {
        const b = await readBody();
        if (x.state !== 'pending') return problem(409, 'ApprovalNotPending', 'Conflict', `The request is ${x.state}`);
        if (parts[2] === 'cancel') {
          if (x.requester !== me.username) return forbidden();
          x.state = 'cancelled';
          x.decidedAt = now();
          return ok(approvalBody(x));
        }
        if (parts[2] === 'approve' || parts[2] === 'reject') {
          if (x.requester === me.username) return forbidden('SelfApproval');
          if (!canReview(me, x)) return forbidden();
          x.state = parts[2] === 'approve' ? 'approved' : 'rejected';
          x.reviewer = me.username;
          x.comment = b.comment ?? null;
          x.decidedAt = now();
          if (x.state === 'approved' && x.kind === 'quota-grant') {
            accounts.get(x.account)?.grants.push({ resource: x.resource, milli: toMilli(x.amount), until: x.until });
          }
          record(me, x.account, `approval.${parts[2]}`, 'approval', x.id, { state: 'pending' }, { state: x.state }, req);
          notify(x.requester, 'approval-decided', `Your ${x.kind} request was ${x.state}.`, '/approvals');
          return ok(approvalBody(x));
        }
      }
      return null;
    }

    // ---- audit ----
    if (parts[0] === 'audit') {
      if (!isAdmin(me)) return forbidden();
      if (parts.length === 1 && method === 'GET') {
        const f = Object.fromEntries(['actor', 'action', 'account', 'from', 'to'].map((k) => [k, url.searchParams.get(k)]));
        const list = audit.filter(
          (e) =>
            (!f.actor || e.actor === f.actor) &&
            (!f.action || e.action.startsWith(f.action)) &&
            (!f.account || e.account === f.account) &&
            (!f.from || e.at >= f.from) &&
            (!f.to || e.at <= f.to),
        );
        return ok(page(list, url));
      }
      if (parts[1] === 'denied' && method === 'GET') return ok(page(denied, url));
    }
    return null;
  }

  function authenticate(username, password) {
    const u = users.get(username);
    if (!u || u.password !== password || u.disabled) return null;
    return u;
  }

  return { handle, authenticate, users, accounts, sessionUser };
}
