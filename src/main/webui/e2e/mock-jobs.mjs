// Jobs part of the mock Crater API: submit (with dry run), list, detail, why it waits, stop, resubmit (with
// changes), and a simulated lifecycle (Queued → Admitted → Pending → Running → Succeeded after SIM_DURATION,
// or until stopped). In memory, for console development only.

import { toMilli } from './mock-governance.mjs';

const GiB = 1024 ** 3;
const KINDS = ['jupyter', 'webide', 'custom', 'pytorch', 'inference'];
const DEFAULT_IMAGES = { jupyter: 'quay.io/jupyter/pytorch-notebook:cuda12-2024-12-09', webide: 'codercom/code-server:4.96.2' };
const FINISHED = ['Succeeded', 'Failed', 'Stopped', 'Rejected'];
const ACTIVE = ['Admitted', 'Pending', 'Running', 'Stopping'];
const RESERVED = (k) => ['HOME', 'JUPYTER_TOKEN'].includes(k) || ['CRATER_', 'PET_', 'VC_'].some((p) => k.startsWith(p));
/** Quota of a personal account for resources it has no line for. */
const PERSONAL_DEFAULT = { cpu: 8000, memory: 32 * GiB * 1000 };
const NODE = { cpu: 96000, memory: 768 * GiB * 1000 };

function problem(status, code, title, detail, extra = {}) {
  return { status, body: { type: 'about:blank', title, status, detail, code, ...extra } };
}
const ok = (body, status = 200) => ({ status, body });

function format(milli) {
  if (milli % 1000 !== 0) return `${milli}m`;
  let units = milli / 1000;
  let suffix = '';
  for (const s of ['Ki', 'Mi', 'Gi', 'Ti']) {
    if (units !== 0 && units % 1024 === 0) {
      units /= 1024;
      suffix = s;
    } else break;
  }
  return `${units}${suffix}`;
}

function durationMs(text) {
  const m = /^(\d{1,6})(ms|s|m|h)$/.exec(String(text ?? '').trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2]];
}

/** A time limit such as "90m", "12h" or "3d" in ms; null when absent or malformed. */
function limitMs(text) {
  const m = /^(\d{1,6})([smhd])$/.exec(String(text ?? '').trim());
  if (!m) return null;
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]];
}

const PRIORITY_RANK = { low: 0, normal: 1, high: 2 };
/** How many jobs just ahead of a waiting one its explanation lists. */
const AHEAD_SHOWN = 20;

export function createJobs({ accounts, models }) {
  const jobs = [];
  let seq = 0;
  const newId = () => `j${(Date.now() % 1e6).toString(36)}${(++seq).toString(36)}`.slice(0, 8).padEnd(8, 'x');

  function validate(b) {
    const errors = [];
    const kind = b?.kind;
    if (!KINDS.includes(kind)) errors.push({ field: 'kind', message: 'one of jupyter, webide, custom, pytorch, inference' });
    const name = String(b?.name ?? '').trim();
    if (name === '' || name.length > 100) errors.push({ field: 'name', message: '1 to 100 characters' });
    const image = b?.image?.trim() || DEFAULT_IMAGES[kind];
    if (!image || /\s/.test(image)) errors.push({ field: 'image', message: 'an image reference without spaces (required for this kind)' });
    const command = Array.isArray(b?.command) ? b.command : [];
    if ((kind === 'custom' || kind === 'pytorch') && command.length === 0) errors.push({ field: 'command', message: 'required for this kind' });
    for (const k of Object.keys(b?.env ?? {})) {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(k)) errors.push({ field: `env.${k}`, message: 'not a variable name' });
      else if (RESERVED(k)) errors.push({ field: `env.${k}`, message: 'set by Crater' });
    }
    const res = b?.resources ?? {};
    const q = (value, fallback, field) => {
      const milli = toMilli(value ?? fallback);
      if (milli === null || milli <= 0) errors.push({ field, message: 'not a quantity (examples: 4, 500m, 16Gi)' });
      return milli ?? 0;
    };
    const cpu = q(res.cpu, '1', 'resources.cpu');
    const memory = q(res.memory, '4Gi', 'resources.memory');
    const count = res.accelerators ?? 0;
    if (!Number.isInteger(count) || count < 0 || count > 16) errors.push({ field: 'resources.accelerators', message: '0 to 16' });
    const model = res.acceleratorModel || null;
    if (model && !models[model]) errors.push({ field: 'resources.acceleratorModel', message: 'unknown accelerator model' });
    if (!model && count > 0) errors.push({ field: 'resources.acceleratorModel', message: 'name the model of the accelerators' });
    const workers = b?.workers ?? 0;
    if (!Number.isInteger(workers) || workers < 0 || (workers > 0 && kind !== 'pytorch')) {
      errors.push({ field: 'workers', message: kind === 'pytorch' ? '0 to 64' : 'only pytorch jobs have workers' });
    }
    if (b?.timeLimit !== undefined && !/^\d{1,6}[smhd]$/.test(b.timeLimit)) errors.push({ field: 'timeLimit', message: 'a duration such as 90m, 12h or 3d' });
    if (b?.priority !== undefined && !['low', 'normal', 'high'].includes(b.priority)) errors.push({ field: 'priority', message: 'low, normal or high' });
    const pods = 1 + workers;
    const perPod = { cpu, memory };
    if (model && count > 0) perPod[model] = count * 1000;
    const requests = Object.fromEntries(Object.entries(perPod).map(([k, v]) => [k, v * pods]));
    return { errors, name, image, perPod, requests, pods };
  }

  function maxOf(account, resource) {
    const line = account.quota.get(resource);
    if (line) return line.maxMilli;
    return account.kind === 'personal' ? (PERSONAL_DEFAULT[resource] ?? 0) : 0;
  }

  function usedOf(slug, resource, except) {
    return jobs
      .filter((j) => j.account === slug && j !== except && ACTIVE.includes(j.state))
      .reduce((s, j) => s + (j.requestsMilli[resource] ?? 0), 0);
  }

  /** What admission decides now: ADMIT, QUEUE (with reasons) or REJECT (with reasons). */
  function admit(account, perPod, requests, except) {
    for (const [res, milli] of Object.entries(perPod)) {
      const largest = res in NODE ? NODE[res] : (models[res]?.per ?? 0) * 1000;
      if (milli > largest) {
        return {
          decision: 'REJECT',
          reasons: [{ code: 'PodLargerThanAnyNode', message: `a pod asks for ${format(milli)} ${res} but the largest matching node offers ${format(largest)}`, numbers: { requested: milli, largestNode: largest } }],
        };
      }
    }
    const reasons = [];
    for (const [res, want] of Object.entries(requests)) {
      const used = usedOf(account.slug, res, except);
      const max = maxOf(account, res);
      if (used + want > max) {
        reasons.push({
          code: 'AccountQuotaExceeded',
          message: `the account would use ${format(used + want)} of ${res} but its max is ${format(max)}`,
          numbers: { requested: want, used, max, granted: 0, effectiveMax: max },
        });
      }
    }
    return reasons.length > 0 ? { decision: 'QUEUE', reasons } : { decision: 'ADMIT', reasons: [] };
  }

  function manifests(spec, v, slug) {
    const env = Object.entries(spec.env ?? {}).map(([k, val]) => `            - name: ${k}\n              value: ${JSON.stringify(val)}`);
    const resources = Object.entries(v.perPod).map(([k, m]) => `                ${k === 'cpu' || k === 'memory' ? k : models[k].resource}: "${format(m)}"`);
    return [
      'apiVersion: batch.volcano.sh/v1alpha1',
      'kind: Job',
      'metadata:',
      `  name: ${slug}-${spec.kind}`,
      `  namespace: crater-jobs`,
      'spec:',
      '  schedulerName: volcano',
      '  tasks:',
      `    - name: ${spec.kind === 'pytorch' ? 'master' : 'main'}`,
      '      replicas: 1',
      '      template:',
      '        spec:',
      '          containers:',
      '            - name: main',
      `              image: ${v.image}`,
      ...(spec.command?.length ? [`              command: ${JSON.stringify(spec.command)}`] : []),
      ...(env.length ? ['              env:', ...env] : []),
      '              resources:',
      '                requests:',
      ...resources,
      '',
    ].join('\n');
  }

  function move(job, to, reason = null, message = null) {
    job.history.push({ at: new Date().toISOString(), from: job.state, to, reason, message });
    job.state = to;
    job.stateReason = reason;
    job.stateMessage = message;
    job.since = Date.now();
    if (to === 'Running' && !job.startedAt) job.startedAt = new Date().toISOString();
    if (FINISHED.includes(to) && !job.finishedAt) job.finishedAt = new Date().toISOString();
  }

  function summary(j) {
    return {
      id: j.id,
      name: j.name,
      kind: j.spec.kind,
      state: j.state,
      account: j.account,
      owner: j.owner,
      requests: Object.fromEntries(Object.entries(j.requestsMilli).map(([k, v]) => [k, format(v)])),
      borrowing: false,
      reasons: j.state === 'Queued' ? j.reasons : [],
      createdAt: j.createdAt,
      startedAt: j.startedAt,
      finishedAt: j.finishedAt,
    };
  }

  // The simulated cluster: admission rounds and container lifecycles.
  const ticker = setInterval(() => {
    const t = Date.now();
    for (const j of jobs) {
      const account = accounts.get(j.account);
      if (j.state === 'Queued' && account) {
        const a = admit(account, j.perPod, j.requestsMilli, j);
        if (a.decision === 'ADMIT') move(j, 'Admitted', 'Admitted', 'fits the account quota and the cluster');
        else j.reasons = a.reasons;
      } else if (j.state === 'Admitted' && t - j.since >= 700) move(j, 'Pending', 'Scheduled', 'pods created');
      else if (j.state === 'Pending' && t - j.since >= 700) move(j, 'Running', 'Started', 'all containers started');
      else if (j.state === 'Running' && j.runFor !== null && t - j.since >= j.runFor) move(j, 'Succeeded', 'Completed', 'exit code 0');
      else if (j.state === 'Stopping' && t - j.since >= 700) move(j, 'Stopped', 'StoppedByUser', `stopped by ${j.stoppedBy}`);
    }
  }, 250);
  ticker.unref?.();

  /** Admits and records a new job (201), or refuses one that can never run (422). */
  function create(account, spec, v, me, sourceJob) {
    const a = admit(account, v.perPod, v.requests, null);
    if (a.decision === 'REJECT') return problem(422, 'JobRejected', 'Unprocessable Entity', 'the job can never run on this cluster', { reasons: a.reasons });
    const created = new Date().toISOString();
    const job = {
      id: newId(),
      name: v.name,
      account: account.slug,
      owner: me.username,
      spec,
      perPod: v.perPod,
      requestsMilli: v.requests,
      state: 'Queued',
      stateReason: null,
      stateMessage: null,
      reasons: a.reasons,
      history: [{ at: created, from: null, to: 'Queued', reason: 'Submitted', message: `submitted by ${me.username}` }],
      createdAt: created,
      startedAt: null,
      finishedAt: null,
      since: Date.now(),
      runFor: spec.env?.SIM_DURATION !== undefined ? durationMs(spec.env.SIM_DURATION) : null,
      stoppedBy: null,
      sourceJob,
    };
    jobs.unshift(job);
    return ok(summary(job), 201);
  }

  /** The spec with resubmit changes put in: {"resources.accelerators": 1, "priority": "high", …}. */
  function changedSpec(spec, changes) {
    const out = { ...spec, resources: { ...(spec.resources ?? {}) } };
    for (const [field, value] of Object.entries(changes ?? {})) {
      if (field.startsWith('resources.')) out.resources[field.slice('resources.'.length)] = value;
      else out[field] = value;
    }
    return out;
  }

  /** When the job's time limit (or its SIM_DURATION) ends it, in epoch ms; null when it runs until stopped. */
  function endsAt(j) {
    const start = j.startedAt ? Date.parse(j.startedAt) : j.since;
    if (j.runFor !== null) return start + j.runFor;
    const limit = limitMs(j.spec.timeLimit);
    return limit === null ? null : start + limit;
  }

  /** The waiting line in admission order: higher priority first, then oldest first. */
  function waitingLine() {
    return jobs
      .filter((j) => j.state === 'Queued')
      .map((j, i) => ({ j, i }))
      .sort((x, y) => (PRIORITY_RANK[y.j.spec.priority ?? 'normal'] - PRIORITY_RANK[x.j.spec.priority ?? 'normal']) || y.i - x.i)
      .map(({ j }) => j);
  }

  /** Why the job waits: reasons, place in line, estimated start and what would make it start now. */
  function waitOf(job, isMember) {
    const none = { state: job.state, reasons: [], position: null, estimate: null, suggestions: [] };
    if (job.state === 'Admitted') {
      return { ...none, reasons: [{ code: 'CreatingObjects', message: 'admitted; its Volcano Job and pods are being created', numbers: {} }] };
    }
    if (job.state === 'Pending') {
      const image = job.spec.image || DEFAULT_IMAGES[job.spec.kind] || 'the image';
      const since = Math.floor(job.since / 1000);
      return {
        ...none,
        reasons: [{ code: 'ImagePulling', message: `pulling image ${image} since ${new Date(job.since).toISOString()}`, numbers: { sinceEpochSeconds: since } }],
      };
    }
    if (job.state !== 'Queued') return none;

    const line = waitingLine();
    const at = line.indexOf(job);
    const accountLine = line.filter((j) => j.account === job.account);
    const ahead = line.slice(Math.max(0, at - AHEAD_SHOWN), at).map((j) => {
      const visible = isMember(j.account);
      return {
        id: visible ? j.id : null,
        name: visible ? j.name : null,
        owner: visible ? j.owner : null,
        sameAccount: j.account === job.account,
        priority: j.spec.priority ?? 'normal',
        requests: Object.fromEntries(Object.entries(j.requestsMilli).map(([k, v]) => [k, format(v)])),
      };
    });
    const position = {
      inAccount: accountLine.indexOf(job) + 1,
      accountWaiting: accountLine.length,
      inCluster: at + 1,
      clusterWaiting: line.length,
      ahead,
    };

    // Admission here is quota only: the job waits for its account's running jobs to end.
    const holders = jobs.filter((j) => j.account === job.account && ACTIVE.includes(j.state));
    const open = holders.filter((j) => endsAt(j) === null);
    let estimate;
    if (holders.length === 0) {
      const first = job.reasons[0];
      estimate = {
        startBy: null,
        waitsFor: [],
        unknown: {
          code: 'CannotStartOnIdleCluster',
          message: `even with every running job ended it would not start: ${first?.message ?? 'no room'}`,
          numbers: first?.numbers ?? {},
        },
      };
    } else if (open.length > 0) {
      estimate = {
        startBy: null,
        waitsFor: [],
        unknown: {
          code: 'WaitsForJobsWithoutTimeLimit',
          message: `${open.length} running job${open.length === 1 ? ' has' : 's have'} no time limit, and it cannot start before some of them end`,
          numbers: { jobs: open.length },
        },
      };
    } else {
      const last = Math.max(...holders.map(endsAt));
      estimate = { startBy: new Date(Math.max(last, Date.now())).toISOString(), waitsFor: holders.map((j) => j.id), unknown: null };
    }

    const suggestions = [];
    const account = accounts.get(job.account);
    const res = job.spec.resources ?? {};
    const model = res.acceleratorModel || null;
    const count = res.accelerators ?? 0;
    if (account && model && count > 1) {
      for (let k = count - 1; k >= 1; k--) {
        const v = validate(changedSpec(job.spec, { 'resources.accelerators': k }));
        if (v.errors.length === 0 && admit(account, v.perPod, v.requests, job).decision === 'ADMIT') {
          suggestions.push({
            code: 'FewerAccelerators',
            message: `with ${k} instead of ${count} ${model} per pod it would start now`,
            change: { 'resources.accelerators': k },
            numbers: { requested: count, startsNowWith: k },
          });
          break;
        }
      }
    }
    if (account && model && count > 0) {
      for (const [key, m] of Object.entries(models)) {
        if (key === model) continue;
        const v = validate(changedSpec(job.spec, { 'resources.acceleratorModel': key }));
        if (v.errors.length === 0 && admit(account, v.perPod, v.requests, job).decision === 'ADMIT') {
          suggestions.push({
            code: 'OtherModel',
            message: `${count} ${m.displayName} per pod are free now: with that model it would start now`,
            change: { 'resources.acceleratorModel': key },
            numbers: { accelerators: count },
          });
        }
      }
    }
    for (const r of job.reasons) {
      if (r.code !== 'AccountQuotaExceeded') continue;
      const resource = /\bof (\S+) but\b/.exec(r.message)?.[1];
      const shortfall = r.numbers.used + r.numbers.requested - r.numbers.effectiveMax;
      if (!resource || !(shortfall > 0)) continue;
      suggestions.push({
        code: 'RequestGrant',
        message: `a grant of ${format(shortfall)} ${resource} to the account would lift its quota enough (an account admin approves it)`,
        change: { resource, amount: format(shortfall) },
        numbers: { shortfall, used: r.numbers.used, effectiveMax: r.numbers.effectiveMax },
      });
    }
    return { state: 'Queued', reasons: job.reasons, position, estimate, suggestions };
  }

  /** Handles /api/v1/jobs routes; returns null when the route is not one of them. */
  async function handle(req, url, me, readBody) {
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'jobs') return null;
    const method = req.method;
    const isMember = (slug) => me.role === 'admin' || accounts.get(slug)?.members.has(me.username);

    if (parts.length === 1 && method === 'POST') {
      const slug = req.headers['x-crater-account'] || me.defaultAccount;
      const account = accounts.get(slug);
      if (!account || !account.members.has(me.username)) return problem(403, 'NotAMember', 'Forbidden', `you are not a member of ${slug}`);
      const spec = await readBody();
      const v = validate(spec);
      if (v.errors.length > 0) return problem(400, 'InvalidJob', 'Bad Request', 'the job cannot be submitted as given', { errors: v.errors });
      if (url.searchParams.get('dryRun') === 'true') {
        const a = admit(account, v.perPod, v.requests, null);
        return ok({ decision: a.decision, reasons: a.reasons, borrowing: [], manifests: manifests(spec, v, slug) });
      }
      return create(account, spec, v, me, null);
    }
    if (parts.length === 1 && method === 'GET') {
      const slug = url.searchParams.get('account') || req.headers['x-crater-account'] || me.defaultAccount;
      if (!isMember(slug)) return problem(403, 'NotAMember', 'Forbidden', `you are not a member of ${slug}`);
      const state = url.searchParams.get('state');
      const list = jobs.filter((j) => j.account === slug && (!state || j.state === state)).map(summary);
      const limit = Number(url.searchParams.get('limit') || 50);
      const start = Number(url.searchParams.get('cursor') || 0);
      return ok({ items: list.slice(start, start + limit), nextCursor: start + limit < list.length ? String(start + limit) : null });
    }
    const job = jobs.find((j) => j.id === parts[1]);
    if (!job || !isMember(job.account)) return problem(404, 'JobNotFound', 'Not Found', `no job ${parts[1]}`);
    if (parts.length === 2 && method === 'GET') {
      const own = job.owner === me.username || me.role === 'admin';
      return ok({
        job: summary(job),
        spec: job.spec,
        stateReason: job.stateReason,
        stateMessage: job.stateMessage,
        history: job.history,
        template: null,
        sourceJob: job.sourceJob ?? null,
        pods: [],
        events: [],
        exits: [],
        permissions: { stop: own && !FINISHED.includes(job.state), delete: false, readLogs: own, resubmit: true },
      });
    }
    if (parts.length === 3 && parts[2] === 'wait' && method === 'GET') return ok(waitOf(job, isMember));
    // The mock has no pods to reach and no GPU exporter: nothing to connect to, no samples.
    if (parts.length === 3 && parts[2] === 'connect' && method === 'GET') {
      return ok({ job: job.id, state: job.state, reachable: false, sshEnabled: false, sshHost: 'localhost', sshPort: 2222, pods: [] });
    }
    if (parts.length === 3 && parts[2] === 'gpu-utilisation' && method === 'GET') {
      const to = new Date();
      return ok({
        job: job.id,
        model: job.spec.resources?.acceleratorModel ?? null,
        accelerators: job.spec.resources?.accelerators ?? 0,
        metric: 'DCGM_FI_DEV_GPU_UTIL',
        thresholdPercent: 5,
        windowSeconds: 7200,
        graceSeconds: 1800,
        from: new Date(to.getTime() - 7_200_000).toISOString(),
        to: to.toISOString(),
        series: [],
        unavailable: null,
        decision: null,
      });
    }
    if (parts.length === 3 && parts[2] === 'resubmit' && method === 'POST') {
      const account = accounts.get(job.account);
      if (!account || !account.members.has(me.username)) return problem(403, 'NotAMember', 'Forbidden', 'only members of the job\'s account may resubmit it');
      const b = (await readBody()) ?? {};
      const replace = b.replace === true;
      if (replace && job.owner !== me.username && me.role !== 'admin') {
        return problem(403, 'NotJobOwner', 'Forbidden', 'only the job\'s owner or an admin of its account may replace it');
      }
      const allowed = ['resources.accelerators', 'resources.acceleratorModel', 'resources.cpu', 'resources.memory', 'timeLimit', 'priority'];
      const bad = Object.keys(b.changes ?? {}).filter((k) => !allowed.includes(k));
      if (bad.length > 0) {
        return problem(400, 'InvalidChanges', 'Bad Request', `only ${allowed.join(', ')} may be changed on resubmitting`, {
          errors: bad.map((k) => ({ field: `changes.${k}`, message: 'cannot be changed here' })),
        });
      }
      const spec = changedSpec(job.spec, b.changes);
      const v = validate(spec);
      if (v.errors.length > 0) return problem(400, 'InvalidJob', 'Bad Request', 'the job cannot be submitted as given', { errors: v.errors });
      const created = create(account, spec, v, me, job.id);
      if (created.status === 201 && replace && job.state === 'Queued') {
        job.stoppedBy = me.username;
        move(job, 'Stopped', 'StoppedByUser', `replaced by ${created.body.id}`);
      }
      return created;
    }
    if (parts.length === 3 && parts[2] === 'stop' && method === 'POST') {
      if (FINISHED.includes(job.state)) return problem(409, 'JobFinished', 'Conflict', `the job is already ${job.state}`);
      if (job.owner !== me.username && me.role !== 'admin') return problem(403, 'NotJobOwner', 'Forbidden', 'only the owner can stop this job');
      job.stoppedBy = me.username;
      if (job.state === 'Queued') move(job, 'Stopped', 'StoppedByUser', `stopped by ${me.username}`);
      else if (job.state !== 'Stopping') move(job, 'Stopping', 'StopRequested', `stop requested by ${me.username}`);
      return ok(summary(job));
    }
    return null;
  }

  return { handle };
}
