// Browser test of reaching into a running job from the console:
//   1. through the API, the admin creates the account term-lab (CPU, memory and one A100) with itself as a
//      member, and starts a custom job there that runs for 30 minutes on one A100 at 40 % (the simulator's GPU
//      exporter samples it);
//   2. the admin signs in and opens the job: the Connect section offers a terminal;
//   3. opening it connects to the pod's simulated shell (prompt `crater@<pod>:/workspace$ `); typing
//      `echo hello-terminal` + Enter shows `hello-terminal` on its own line;
//   4. the GPU utilisation chart shows the accelerator's samples (refreshed every 30 s) (screenshot);
//   5. the SSH tab shows the exact command (`ssh -p ...`) and the ~/.ssh/config entry; switching to it closes
//      the terminal;
//   6. Open on a running notebook shows (the simulated) JupyterLab on the job's own origin (screenshot);
//   7. Open on a running VS Code shows code-server on its own origin, and its page's WebSocket echoes through the
//      proxy.
//
// Environment: CRATER_URL, CRATER_USER, CRATER_PASSWORD (a platform admin), SCREENSHOT (optional), CHROMIUM.
// Exits 0 when every check passes, 1 otherwise.

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
  apiClient,
  apiLogin,
  apiCreateAccount,
  apiSetUpAccount,
  signIn,
  terminalRows,
} from './lib.mjs';

const ACCOUNT = 'term-lab';
const MODEL = 'nvidia-a100-80gb';
/** The simulator's GPU exporter samples every 15 s and the chart refreshes every 30 s. */
const CHART_TIMEOUT_MS = 75_000;

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const admin = { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') };
  const screenshot = process.env.SCREENSHOT || '';

  const api = apiClient(baseUrl);

  const browser = await launchBrowser();
  let page;
  try {
    const jobId = await step(
      'the admin starts a job in an account with quota, through the API',
      async () => {
        const token = await apiLogin(api, admin);
        await apiCreateAccount(api, token, { slug: ACCOUNT, name: 'Terminal Lab' });
        await apiSetUpAccount(api, token, ACCOUNT, {
          quota: [
            { resource: 'cpu', guaranteed: '8', max: '8' },
            { resource: 'memory', guaranteed: '32Gi', max: '32Gi' },
            { resource: MODEL, guaranteed: '1', max: '1' },
          ],
          members: { [admin.username]: 'admin' },
        });
        const created = await api(
          token,
          'POST',
          '/jobs',
          {
            name: 'term',
            kind: 'custom',
            image: 'python:3.12',
            command: ['sleep', 'infinity'],
            env: { SIM_DURATION: '30m', SIM_GPU_UTIL: '40' },
            resources: { cpu: '1', memory: '1Gi', acceleratorModel: MODEL, accelerators: 1 },
          },
          [201],
          ACCOUNT,
        );
        let state = null;
        await waitFor(
          async () => {
            state = (await api(token, 'GET', `/jobs/${created.id}`)).job.state;
            return state === 'Running';
          },
          () => `the job ${created.id} is ${state}, expected Running`,
          60_000,
        );
        log(`job ${created.id} runs`);
        return created.id;
      },
      STEP_TIMEOUT_MS * 3,
    );

    page = await step('the admin signs in and opens the job', async () => {
      const p = await signIn(browser, baseUrl, admin);
      await p.goto(`${baseUrl}/jobs/${jobId}`, { waitUntil: 'domcontentloaded' });
      await p.locator(`[data-testid="job-detail"][data-id="${jobId}"]`).waitFor({ state: 'visible' });
      await p.getByTestId('job-connect').waitFor({ state: 'visible' });
      return p;
    });

    await step('the terminal opens on the pod\u2019s shell and runs a command', async () => {
      await page.getByTestId('job-terminal-open').click();
      await page.locator('[data-testid="job-terminal-status"][data-status="connected"]').waitFor({ state: 'visible' });
      let rows = [];
      await waitFor(
        async () => {
          rows = await terminalRows(page);
          // The pod's user at its home: `<user>@<pod>:~$`.
          return rows.some((r) => /^\S+@c-\S+-main-0:~\$$/.test(r.trim()));
        },
        () => `no prompt in the terminal: ${JSON.stringify(rows.filter((r) => r !== ''))}`,
      );
      await page.getByTestId('job-terminal-screen').click();
      await page.keyboard.type('echo hello-terminal');
      await page.keyboard.press('Enter');
      await waitFor(
        async () => {
          rows = await terminalRows(page);
          return rows.some((r) => r === 'hello-terminal');
        },
        () => `the terminal does not show hello-terminal on its own line: ${JSON.stringify(rows.filter((r) => r !== ''))}`,
      );
      const status = (await page.getByTestId('job-terminal-status').innerText()).trim();
      log(`terminal: ${status}; ${JSON.stringify(rows.filter((r) => r !== ''))}`);
    });

    await step(
      'the GPU utilisation chart shows the accelerator\u2019s samples',
      async () => {
        await page.getByTestId('job-gpu').waitFor({ state: 'visible' });
        const series = page.locator('[data-testid="job-gpu-series"]').first();
        let samples = null;
        await waitFor(
          async () => {
            samples = (await series.getAttribute('data-samples', { timeout: 1000 }).catch(() => null)) ?? null;
            return samples !== null && Number(samples) > 0;
          },
          () => `the chart shows no samples (data-samples ${samples})`,
          CHART_TIMEOUT_MS,
        );
        const latest = Number(await series.getAttribute('data-latest'));
        check(Math.abs(latest - 40) < 0.01, `the latest sample is ${latest} %, expected 40 %`);
        log(`chart: ${(await series.innerText()).replace(/\s+/g, ' ').trim()}`);
        // The terminal is still connected and still shows the command's output.
        check(
          (await page.getByTestId('job-terminal-status').getAttribute('data-status')) === 'connected',
          'the terminal is no longer connected',
        );
        if (screenshot) {
          await page.screenshot({ path: screenshot, fullPage: true });
          log(`screenshot written to ${screenshot}`);
        }
      },
      CHART_TIMEOUT_MS + STEP_TIMEOUT_MS,
    );

    await step('the SSH tab gives the command and the config entry', async () => {
      await page.getByTestId('job-connect-tab-ssh').click();
      await page.getByTestId('job-terminal').waitFor({ state: 'detached' });
      const command = (await page.getByTestId('job-ssh-command').first().innerText()).trim();
      check(command.startsWith('ssh -p '), `the SSH command is ${JSON.stringify(command)}`);
      check(command.includes(jobId), `the SSH command does not name the job ${jobId}: ${command}`);
      const config = await page.getByTestId('job-ssh-config').first().innerText();
      check(config.startsWith(`Host crater-${jobId}`), `the config entry is ${JSON.stringify(config)}`);
      check(
        (await page.getByTestId('job-ssh-vscode').first().innerText()).includes(`crater-${jobId}`),
        'the VS Code hint does not name the host alias',
      );
      log(`ssh: ${command}`);
    });

    /**
     * Starts an interactive job of `kind` in the account, waits until Open is offered (the app answers its readiness
     * path; 409 AppNotReady before), clicks Open on its page and returns the app's page on the job's own origin with
     * its heading.
     */
    async function openApp(name, kind) {
      const token = await apiLogin(api, admin);
      const job = await api(
        token,
        'POST',
        '/jobs',
        { name, kind, env: { SIM_DURATION: '30m' }, resources: { cpu: '1', memory: '2Gi' } },
        [201],
        ACCOUNT,
      );
      await waitFor(
        async () =>
          api(token, 'POST', `/jobs/${job.id}/open`, undefined, [200]).then(
            () => true,
            () => false,
          ),
        () => `the ${kind} job ${job.id} never answered its readiness path`,
        120_000, // starting, then the app getting ready
      );
      await page.goto(`${baseUrl}/jobs/${job.id}`, { waitUntil: 'domcontentloaded' });
      const [app] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('job-open-app').click()]);
      await app.waitForURL((url) => url.hostname === `${job.id}.apps.localhost`, { timeout: 20_000 });
      await app.locator('h1').waitFor({ state: 'visible' });
      return { app, heading: (await app.locator('h1').innerText()).trim() };
    }

    await step(
      'Open on a running notebook shows JupyterLab on the job\u2019s own origin',
      async () => {
        const { app, heading } = await openApp('notebook', 'jupyter');
        check(heading.includes('JupyterLab'), `the app origin shows ${JSON.stringify(heading)}`);
        const url = new URL(app.url());
        check(url.origin !== new URL(baseUrl).origin, 'the app is served on the console\u2019s origin');
        check(url.pathname === '/lab', `the app opened at ${url.pathname}, expected /lab`);
        if (screenshot) {
          const appShot = screenshot.replace(/\.png$/, '-app.png');
          await app.screenshot({ path: appShot, fullPage: true });
          log(`app screenshot written to ${appShot}`);
        }
        log(`app: ${url.origin}${url.pathname} shows ${heading}`);
        await app.close();
      },
      STEP_TIMEOUT_MS * 3,
    );

    await step(
      'Open on a running VS Code shows code-server on its own origin, with a WebSocket through the proxy',
      async () => {
        const { app, heading } = await openApp('ide', 'webide');
        check(heading.includes('VS Code'), `the app origin shows ${JSON.stringify(heading)}`);
        // The page opens a WebSocket to its own origin; the proxy checks its Origin and bridges it to the pod.
        let echo = '';
        await waitFor(
          async () => {
            echo = (await app.locator('#echo').innerText()).trim();
            return echo.startsWith('echoed: hello from');
          },
          () => `the app's WebSocket says ${JSON.stringify(echo)}`,
        );
        log(`app: ${new URL(app.url()).origin} shows ${heading}; websocket ${echo}`);
        await app.close();
      },
      STEP_TIMEOUT_MS * 3,
    );

    log('all checks passed');
    return 0;
  } catch (e) {
    await reportFailure(e, page, screenshot);
    return 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

runMain(main);
