// Crater's MCP endpoint driven by the official TypeScript SDK's client over Streamable HTTP: it negotiates,
// lists the tools (no admin tools for a member), calls each read-only tool and a dry-run submission (the SDK
// checks every structured result against the tool's output schema), and checks that another account's job
// stays out of reach. Environment: CRATER_URL, CRATER_TOKEN (a member's personal access token),
// CRATER_WAITING_JOB and CRATER_FAILED_JOB (the member's), CRATER_OTHER_JOB (another account's), CRATER_ACCOUNT.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

function env(name) {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

const url = new URL('/mcp', env('CRATER_URL'));
const account = env('CRATER_ACCOUNT');
const waiting = env('CRATER_WAITING_JOB');
const failed = env('CRATER_FAILED_JOB');
const other = env('CRATER_OTHER_JOB');

const transport = new StreamableHTTPClientTransport(url, {
  requestInit: { headers: { Authorization: `Bearer ${env('CRATER_TOKEN')}` } },
});
const client = new Client({ name: 'crater-e2e', version: '1.0.0' });

async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  check(Array.isArray(result.content) && result.content[0]?.type === 'text', `${name}: a text content`);
  console.log(`[mcp] ${name} ${JSON.stringify(args)} -> isError=${Boolean(result.isError)}`);
  return result;
}

async function main() {
  await client.connect(transport);
  check(client.getServerVersion()?.name === 'crater', 'serverInfo.name is crater');
  check(transport.sessionId, 'a session id was issued');
  check(client.getServerCapabilities()?.tools, 'the tools capability');
  check(/not instructions/.test(client.getInstructions() ?? ''), 'the instructions say tool output is data');

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  console.log(`[mcp] tools: ${names.join(', ')}`);
  check(!names.includes('cluster_nodes') && !names.includes('list_all_jobs'), 'no admin tools for a member');
  for (const t of tools) {
    check(t.inputSchema?.type === 'object' && t.outputSchema?.type === 'object', `${t.name}: both schemas`);
  }

  const readOnly = {
    list_jobs: { account, mine: true },
    get_job: { id: waiting },
    why_is_job_waiting: { id: waiting },
    tail_job_log: { id: failed, lines: 3 },
    explain_job_failure: { id: failed },
    my_quota_and_usage: { account },
    free_accelerators: {},
  };
  for (const t of tools.filter((t) => t.annotations?.readOnlyHint)) {
    check(t.name in readOnly, `a read-only tool this script knows: ${t.name}`);
  }
  for (const [name, args] of Object.entries(readOnly)) {
    const r = await call(name, args);
    check(!r.isError, `${name} succeeds: ${r.content[0].text}`);
    check(JSON.stringify(JSON.parse(r.content[0].text)) === JSON.stringify(r.structuredContent), `${name}: text = JSON`);
  }
  const jobs = (await call('list_jobs', { account, mine: true })).structuredContent.items.map((j) => j.id);
  check(jobs.includes(waiting) && jobs.includes(failed), "list_jobs lists the member's jobs");
  const wait = (await call('why_is_job_waiting', { id: waiting })).structuredContent;
  check(wait.reasons.length > 0 && wait.reasons[0].numbers, 'a waiting job has reasons with numbers');
  const failure = (await call('explain_job_failure', { id: failed })).structuredContent;
  check(failure.state === 'Failed' && failure.exits.some((e) => e.exitCode === 3), 'the failure shows exit code 3');

  const job = { name: 'from-mcp', kind: 'custom', image: 'busybox', command: ['true'], resources: { cpu: '1', memory: '1Gi' } };
  const dry = (await call('submit_job', { job, account })).structuredContent;
  check(dry.dryRun === true && dry.decision && typeof dry.manifests === 'string', 'submit_job is a dry run by default');
  const after = (await call('list_jobs', { account, mine: true })).structuredContent.items;
  check(!after.some((j) => j.name === 'from-mcp'), 'the dry run created no job');

  for (const name of ['get_job', 'tail_job_log', 'stop_job']) {
    const r = await call(name, { id: other });
    check(r.isError === true, `${name} on another account's job is refused`);
    check([403, 404].includes(r.structuredContent.problem.status), `${name}: 403 or 404, got ${r.content[0].text}`);
  }
  const admin = await call('cluster_nodes', {}).catch((e) => ({ thrown: e }));
  check(admin.thrown || admin.isError, 'a member cannot use cluster_nodes');

  await transport.terminateSession();
  await client.close();
  console.log('[mcp] all checks passed');
}

main().catch(async (e) => {
  console.error(`[mcp] FAILED: ${e instanceof Error ? e.stack : String(e)}`);
  await client.close().catch(() => {});
  process.exit(1);
});
