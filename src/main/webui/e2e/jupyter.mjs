// Browser test of a real notebook behind Crater's app proxy:
//   1. through the API, the admin creates the user nb.user (whose personal account fits a CPU-only notebook);
//   2. nb.user signs in, starts "JupyterLab + PyTorch" from /templates with its defaults (CPU only) and sees it
//      running;
//   3. the test starts a real Jupyter Notebook server (Debian's classic Notebook 6) as the pod's app: Crater runs with
//      CRATER_SIM_PORT_BACKENDS=kind/jupyter:8888=127.0.0.1:$JUPYTER_PORT, so the pod's port 8888 reaches it through
//      pods/portforward. It gets the pod's own settings, read from the simulated cluster's API: the base URL and
//      allow_remote_access from the container's --ServerApp.* arguments, the token from the job's Secret, and as its
//      folder the user's space that the pod mounts at its root_dir;
//   4. once the app answers, nb.user clicks Open: the job's own origin shows Jupyter's file list (/ → /tree), with
//      Jupyter's _xsrf cookie beside Crater's crater_app on that origin;
//   5. New → Python 3 opens a notebook whose kernel starts and goes idle (its WebSocket through Crater's proxy);
//      typing print(6*7) and Shift+Enter shows 42; saving writes Untitled.ipynb, with the code and its output, into
//      the user's space (screenshot);
//   6. nb.user stops the job; the test stops Jupyter (its process group and its kernels, which run in sessions of
//      their own) and checks that none of them is left.
//
// Environment: CRATER_URL, CRATER_USER, CRATER_PASSWORD (a platform admin), CRATER_KUBE_API (the simulated cluster's
// API), CRATER_HOME, JUPYTER_PORT, JUPYTER_PID_FILE and JUPYTER_LOG (optional), SCREENSHOT (optional), CHROMIUM.
// Exits 0 when every check passes, 1 otherwise.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  STEP_TIMEOUT_MS,
  env,
  log,
  check,
  step,
  waitFor,
  launchBrowser,
  reportFailure,
  runMain,
  signIn,
  submitJob,
  waitForJobState,
  apiClient,
  apiLogin,
  apiCreateUser,
} from './lib.mjs';

const USER = { username: 'nb.user', password: 'Notebook-pass-12345' };
const NAMESPACE = 'crater-jobs';
/** Starting the job, then the Jupyter server and its first answer through the proxy. */
const READY_TIMEOUT_MS = 120_000;

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const kubeApi = env('CRATER_KUBE_API').replace(/\/+$/, '');
  const home = env('CRATER_HOME');
  const jupyterPort = Number(env('JUPYTER_PORT'));
  const screenshot = process.env.SCREENSHOT || '';

  const api = apiClient(baseUrl);

  async function kube(path) {
    const res = await fetch(`${kubeApi}${path}`);
    const text = await res.text();
    check(res.status === 200, `GET ${path} on the cluster's API: ${res.status} ${text}`);
    return JSON.parse(text);
  }

  const browser = await launchBrowser();
  let page;
  let jupyter;
  try {
    await step(`the admin creates ${USER.username}`, async () => {
      const admin = await apiLogin(api, { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') });
      await apiCreateUser(api, admin, { username: USER.username, displayName: 'Notebook User', password: USER.password });
    });

    page = await step(`${USER.username} signs in`, () => signIn(browser, baseUrl, USER));

    const jobId = await step(
      'a notebook from the built-in template runs',
      async () => {
        await page.goto(`${baseUrl}/templates`, { waitUntil: 'domcontentloaded' });
        await page.getByTestId('template-use-jupyter-pytorch').click();
        await page.getByTestId('template-form').waitFor({ state: 'visible' });
        // The template's defaults (CPU only) fit a personal account: only the name is given.
        await page.getByTestId('job-name').fill('real-notebook');
        const id = await submitJob(page);
        await waitForJobState(page, ['Running']);
        log(`${id} is Running`);
        return id;
      },
      STEP_TIMEOUT_MS * 3,
    );

    const app = await step(
      'a real Jupyter Notebook serves the pod\u2019s app port, with the pod\u2019s settings',
      async () => {
        const settings = await podSettings(kube, jobId, home);
        log(
          `pod ${settings.pod}: base_url ${settings.baseUrl}, allow_remote_access ${settings.allowRemoteAccess}, folder ${settings.folder}`,
        );
        jupyter = startJupyter(settings, jupyterPort);
        const token = await apiLogin(api, USER);
        let last = '';
        await waitFor(
          async () => {
            const res = await fetch(`${baseUrl}/api/v1/jobs/${jobId}/open`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}` },
            });
            last = `${res.status} ${await res.text()}`;
            check(jupyter.exitCode === null, `Jupyter exited with ${jupyter.exitCode}; see ${jupyter.logFile}`);
            return res.status === 200;
          },
          () => `the notebook never answered its readiness path through Crater: ${last}`,
          READY_TIMEOUT_MS,
        );
        // Jupyter itself lets nobody in without the token: what reaches it through Crater carries the job's token.
        const direct = await fetch(`http://127.0.0.1:${jupyterPort}${settings.baseUrl.replace(/\/$/, '')}/api/kernels`);
        check(direct.status === 403, `Jupyter answers ${direct.status} without its token, expected 403`);
        return settings;
      },
      READY_TIMEOUT_MS + STEP_TIMEOUT_MS,
    );

    const notebook = await step('Open shows Jupyter\u2019s file list on the job\u2019s own origin', async () => {
      const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('job-open-app').click()]);
      await tab.waitForURL((url) => url.hostname === `${jobId}.apps.localhost` && url.pathname === '/tree', { timeout: STEP_TIMEOUT_MS });
      await tab.locator('#notebook_list').waitFor({ state: 'visible' });
      const origin = new URL(tab.url()).origin;
      check(origin !== new URL(baseUrl).origin, 'the notebook is served on the console\u2019s origin');
      const cookies = await tab.context().cookies(origin);
      const names = cookies.map((c) => c.name).sort();
      check(names.includes('_xsrf'), `the app origin holds no _xsrf cookie of Jupyter's: ${JSON.stringify(names)}`);
      check(names.includes('crater_app'), `the app origin holds no crater_app session: ${JSON.stringify(names)}`);
      const hosts = [...new Set(cookies.map((c) => c.domain))];
      check(hosts.length === 1 && hosts[0] === `${jobId}.apps.localhost`, `the app's cookies are not host-only: ${JSON.stringify(hosts)}`);
      log(`${origin}/tree shows Jupyter's file list; cookies ${names.join(', ')}`);
      return tab;
    });

    await step(
      'a new Python 3 notebook runs print(6*7) and shows 42',
      async () => {
        await notebook.locator('#new-dropdown-button').click();
        const [nb] = await Promise.all([notebook.context().waitForEvent('page'), notebook.locator('#kernel-python3 a').click()]);
        await nb.waitForURL((url) => /^\/notebooks\/Untitled\d*\.ipynb$/.test(url.pathname), { timeout: STEP_TIMEOUT_MS });
        await nb.locator('#kernel_indicator_icon.kernel_idle_icon').waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS * 2 });
        const cell = nb.locator('.cell.code_cell').first();
        await cell.locator('.CodeMirror').click();
        await nb.keyboard.type('print(6*7)');
        await nb.keyboard.press('Shift+Enter');
        let output = '';
        await waitFor(
          async () => {
            output = (
              await cell
                .locator('.output_subarea')
                .innerText({ timeout: 1000 })
                .catch(() => '')
            ).trim();
            return output === '42';
          },
          () => `the cell's output is ${JSON.stringify(output)}, expected 42`,
        );
        // The output comes on its own channel before the reply that numbers the prompt: wait for that too.
        let prompt = '';
        await waitFor(
          async () => {
            prompt = (await cell.locator('.input_prompt').innerText()).replace(/\s+/g, ' ').trim();
            return prompt === 'In [1]:';
          },
          () => `the cell's prompt is ${JSON.stringify(prompt)}, expected In [1]:`,
        );
        await nb.keyboard.press('Control+s');
        const file = join(app.folder, decodeURIComponent(new URL(nb.url()).pathname.replace('/notebooks/', '')));
        let saved = null;
        await waitFor(
          () => {
            saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
            const first = saved?.cells?.[0];
            return first && [].concat(first.source).join('') === 'print(6*7)' && JSON.stringify(first.outputs ?? []).includes('42\\n');
          },
          () => `${file} does not hold the cell and its output: ${JSON.stringify(saved?.cells?.[0] ?? null)}`,
        );
        log(`In [1]: print(6*7) → ${output}; saved to ${file}`);
        if (screenshot) {
          await nb.screenshot({ path: screenshot, fullPage: true });
          log(`screenshot written to ${screenshot}`);
        }
        await nb.close();
        await notebook.close();
      },
      STEP_TIMEOUT_MS * 4,
    );

    await step(`${USER.username} stops the notebook`, async () => {
      await page.bringToFront();
      await page.getByTestId('job-stop').click();
      await page.getByTestId('job-stop-confirm').click();
      await waitForJobState(page, ['Stopped']);
      log(`${jobId} Stopped`);
    });

    await step('Jupyter and its kernels stop', async () => {
      const left = await stopJupyter(jupyter);
      jupyter = null;
      check(left.length === 0, `processes of Jupyter are still running: ${left.join(', ')}`);
    });

    log('all checks passed');
    return 0;
  } catch (e) {
    await reportFailure(e, page, screenshot);
    return 1;
  } finally {
    if (jupyter) await stopJupyter(jupyter).catch(() => undefined);
    await browser.close().catch(() => undefined);
  }
}

/**
 * What the job's pod asks of its Jupyter, from the simulated cluster's API: the values of its --ServerApp.*
 * arguments, the token in the job's Secret, and the host folder behind the mount at its root_dir (the shared claim
 * is $CRATER_HOME/spaces in the embedded default).
 */
async function podSettings(kube, jobId, home) {
  const pods = await kube(`/api/v1/namespaces/${NAMESPACE}/pods?labelSelector=${encodeURIComponent(`crater.io/job-id=${jobId}`)}`);
  check(pods.items.length === 1, `the job ${jobId} has ${pods.items.length} pods, expected 1`);
  const pod = pods.items[0];
  const container = pod.spec.containers[0];
  const words = [...(container.command ?? []), ...(container.args ?? [])];
  const flag = (name) => {
    const word = words.filter((w) => w.startsWith(`--ServerApp.${name}=`)).pop();
    return word === undefined ? undefined : word.slice(`--ServerApp.${name}=`.length);
  };
  const baseUrl = flag('base_url');
  const rootDir = flag('root_dir');
  check(baseUrl !== undefined && rootDir !== undefined, `the pod's Jupyter arguments lack base_url or root_dir: ${JSON.stringify(words)}`);
  const mount = container.volumeMounts.find((m) => m.mountPath === rootDir);
  check(mount && mount.subPath, `no volume with a subPath is mounted at ${rootDir}`);
  const secret = await kube(`/api/v1/namespaces/${NAMESPACE}/secrets/c-${jobId}-app`);
  const token = secret.data?.token ? Buffer.from(secret.data.token, 'base64').toString('utf8') : secret.stringData?.token;
  check(token, `the job's Secret c-${jobId}-app holds no token`);
  const folder = join(home, 'spaces', mount.subPath);
  mkdirSync(folder, { recursive: true }); // as the kubelet creates a missing subPath
  return { pod: pod.metadata.name, baseUrl, allowRemoteAccess: flag('allow_remote_access') ?? 'False', token, folder };
}

/** Starts the classic Notebook server in a process group of its own, on 127.0.0.1 only, with the pod's settings. */
function startJupyter(settings, port) {
  const state = mkdtempSync(join(tmpdir(), 'crater-jupyter-'));
  const logFile = process.env.JUPYTER_LOG || join(state, 'jupyter.log');
  const out = openSync(logFile, 'a');
  const child = spawn(
    process.env.JUPYTER_NOTEBOOK || 'jupyter-notebook',
    [
      '--allow-root',
      '--no-browser',
      '--ip=127.0.0.1',
      `--port=${port}`,
      '--NotebookApp.port_retries=0',
      `--NotebookApp.base_url=${settings.baseUrl}`,
      `--NotebookApp.allow_remote_access=${settings.allowRemoteAccess}`,
      `--NotebookApp.token=${settings.token}`,
      `--notebook-dir=${settings.folder}`,
    ],
    {
      detached: true,
      stdio: ['ignore', out, out],
      env: {
        ...process.env,
        JUPYTER_CONFIG_DIR: join(state, 'config'),
        JUPYTER_RUNTIME_DIR: join(state, 'runtime'),
        IPYTHONDIR: join(state, 'ipython'),
      },
    },
  );
  if (process.env.JUPYTER_PID_FILE) writeFileSync(process.env.JUPYTER_PID_FILE, `${child.pid}\n`);
  log(`Jupyter Notebook started (pid ${child.pid}, 127.0.0.1:${port}, log ${logFile})`);
  return Object.assign(child, { logFile });
}

/** The processes started from `pid`, children first found through /proc (kernels run in sessions of their own). */
function descendants(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/**
 * Stops Jupyter as its operator would: SIGTERM to its process group (the server then shuts its kernels down), after
 * 10 s SIGTERM to whatever it started that is left (kernels run in sessions of their own), after 5 s more SIGKILL to
 * all of them. Returns the processes still running.
 */
async function stopJupyter(child) {
  const all = [child.pid, ...descendants(child.pid)];
  const kill = (pid, sig) => {
    try {
      process.kill(pid, sig);
    } catch {
      // gone
    }
  };
  const settle = async (ms) => {
    const deadline = Date.now() + ms;
    while (all.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  };
  kill(-child.pid, 'SIGTERM');
  await settle(10_000);
  all.filter(alive).forEach((p) => kill(p, 'SIGTERM'));
  await settle(5_000);
  all.filter(alive).forEach((p) => kill(p, 'SIGKILL'));
  await settle(1_000);
  log(`stopped Jupyter (pid ${child.pid}) and the ${all.length - 1} processes it started`);
  return all.filter(alive);
}

runMain(main);
