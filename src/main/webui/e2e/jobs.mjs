// Browser test of the jobs flow, with one browser context per person:
//   1. the platform admin creates user job.runner on /admin/users;
//   2. job.runner signs in (the personal account u-job-runner is selected by default);
//   3. job.runner fills /jobs/new for a custom job "hello" (python:3.12, `python -c print(1)`, SIM_DURATION=3s,
//      1 CPU, 1Gi), checks it (decision ADMIT), submits it and watches it run and succeed;
//   4. job.runner submits a custom job "long" (runs until stopped), waits until it runs and stops it;
//   5. job.runner opens /templates, uses "JupyterLab + PyTorch", fills its parameters (CPU only), submits it,
//      sees it running, reads its log (followed), and stops it;
//   6. /jobs lists them, Succeeded and Stopped.
//
// Environment:
//   CRATER_URL       base URL of a running Crater server (e.g. http://127.0.0.1:8080)
//   CRATER_USER      platform admin user name
//   CRATER_PASSWORD  that user's password
//   SCREENSHOT       path of the full-page PNG screenshot to write (optional)
//   CHROMIUM         Chromium executable (default /usr/bin/chromium)
//
// Exits 0 when every check passes, 1 otherwise (with the reasons on stderr).

import {
  STEP_TIMEOUT_MS,
  env,
  log,
  CheckFailed,
  check,
  step,
  waitFor,
  launchBrowser,
  reportFailure,
  runMain,
  formErrorText,
  signIn,
  submitJob,
  waitForJobState,
  createUserInConsole,
} from './lib.mjs';

/** How long a job may take to reach a state (admission, image pull, SIM_DURATION). */
const JOB_TIMEOUT_MS = 60_000;
const RUNNER = { username: 'job.runner', displayName: 'Job Runner', password: 'Runner-pass-12345' };
const PERSONAL_ACCOUNT = 'u-job-runner';

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const admin = { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') };
  const screenshot = process.env.SCREENSHOT || '';

  const browser = await launchBrowser();

  let current;

  /** A fresh browser context (own cookies and localStorage) for one person. */
  async function openAs(who) {
    current = await signIn(browser, baseUrl, who);
    return current;
  }

  async function go(page, path) {
    current = page;
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
  }

  /** Fills the new-job form for a custom job. */
  async function fillCustomJob(page, { name, image, command, env: envText, cpu, memory }) {
    await go(page, '/jobs/new');
    await page.getByTestId('job-form').waitFor({ state: 'visible' });
    await page.getByTestId('job-kind').selectOption('custom');
    await page.getByTestId('job-name').fill(name);
    await page.getByTestId('job-image').fill(image);
    await page.getByTestId('job-command').fill(command);
    await page.getByTestId('job-env').fill(envText);
    await page.getByTestId('job-cpu').fill(cpu);
    await page.getByTestId('job-memory').fill(memory);
    await page.getByTestId('job-accelerator-model').selectOption('');
  }

  /** Waits until job-state shows one of `wanted`; returns the state seen. */
  function waitForState(page, wanted, timeoutMs = JOB_TIMEOUT_MS) {
    return waitForJobState(page, wanted, timeoutMs);
  }

  try {
    const adminPage = await step('the platform admin signs in', () => openAs(admin));

    await step(`the admin creates ${RUNNER.username} on /admin/users`, async () => {
      await go(adminPage, '/admin/users');
      await createUserInConsole(adminPage, RUNNER, { existingIsFine: true });
      await adminPage.getByTestId('user-search').fill('');
      await adminPage.locator(`[data-testid="user-row"][data-username="${RUNNER.username}"]`).waitFor({ state: 'visible' });
    });

    const page = await step(`${RUNNER.username} signs in with ${PERSONAL_ACCOUNT} selected`, async () => {
      const p = await openAs(RUNNER);
      const selector = p.getByTestId('account-selector');
      await selector.waitFor({ state: 'visible' });
      let selected = null;
      await waitFor(
        async () => {
          // Remembered per user (src/lib/currentAccount.ts).
          selected = await p.evaluate((user) => window.localStorage.getItem(`crater.account:${user}`), RUNNER.username);
          return selected === PERSONAL_ACCOUNT;
        },
        () => `the selected account is ${JSON.stringify(selected)}, expected ${PERSONAL_ACCOUNT}`,
      );
      return p;
    });

    const helloId = await step(
      'job "hello" is checked (ADMIT), submitted, runs and succeeds',
      async () => {
        await fillCustomJob(page, {
          name: 'hello',
          image: 'python:3.12',
          command: 'python -c print(1)',
          env: 'SIM_DURATION=3s',
          cpu: '1',
          memory: '1Gi',
        });
        await page.getByTestId('job-dryrun').click();
        let decision = null;
        await waitFor(
          async () => {
            decision =
              (
                await page
                  .getByTestId('job-dryrun-decision')
                  .textContent({ timeout: 1000 })
                  .catch(() => null)
              )?.trim() ?? null;
            if (decision) return true;
            const err = await formErrorText(page);
            if (err) throw new CheckFailed(`the check was refused: ${err.text} (${err.code})`);
            return false;
          },
          () => 'the check showed no decision',
        );
        check(decision === 'ADMIT', `the check decided ${JSON.stringify(decision)}, expected ADMIT`);
        log('check: ADMIT');
        const id = await submitJob(page);
        const first = await waitForState(page, ['Running', 'Succeeded']);
        if (first === 'Running') {
          log(`${id} is Running`);
        }
        await waitForState(page, ['Succeeded']);
        // The page polls every 3 s, so a short run may be over before it shows Running: the timeline still must.
        await page.locator('[data-testid="job-history-entry"][data-to="Running"]').first().waitFor({ state: 'attached' });
        log(`${id} ran and Succeeded`);
        check(!(await page.getByTestId('job-stop').isVisible()), 'a finished job still offers Stop');
        return id;
      },
      JOB_TIMEOUT_MS * 2 + STEP_TIMEOUT_MS,
    );

    const longId = await step(
      'job "long" runs until it is stopped',
      async () => {
        await fillCustomJob(page, {
          name: 'long',
          image: 'python:3.12',
          command: 'python -c "import time; time.sleep(3600)"',
          env: '',
          cpu: '1',
          memory: '1Gi',
        });
        const id = await submitJob(page);
        await waitForState(page, ['Running']);
        log(`${id} is Running`);
        await page.getByTestId('job-stop').click();
        await page.getByTestId('job-stop-confirm').click();
        await waitFor(
          async () => {
            if (!(await page.getByTestId('job-stop-dialog').isVisible())) return true;
            const err = await formErrorText(page);
            if (err) throw new CheckFailed(`stopping was refused: ${err.text} (${err.code})`);
            return false;
          },
          () => 'the stop dialog stayed open',
        );
        await waitForState(page, ['Stopped']);
        log(`${id} Stopped`);
        return id;
      },
      JOB_TIMEOUT_MS * 2 + STEP_TIMEOUT_MS,
    );

    const notebookId = await step(
      'a Jupyter job from its template runs, its log is read, and it is stopped',
      async () => {
        await go(page, '/templates');
        await page.getByTestId('template-card-jupyter-pytorch').waitFor({ state: 'visible' });
        await page.getByTestId('template-use-jupyter-pytorch').click();
        await page.getByTestId('template-form').waitFor({ state: 'visible' });
        await page.getByTestId('job-name').fill('notebook');
        await page.getByTestId('param-model').selectOption('nvidia-a100-80gb');
        await page.getByTestId('param-accelerators').fill('0');
        await page.getByTestId('param-cpu').fill('2');
        await page.getByTestId('param-memory').fill('4Gi');
        await page.getByTestId('param-sharedMemory').fill('1Gi');
        const id = await submitJob(page);
        const link = (await page.getByTestId('job-template').innerText()).trim();
        check(link.includes('JupyterLab'), `the job does not name its template: ${JSON.stringify(link)}`);
        await waitForState(page, ['Running']);
        log(`${id} is Running`);
        await page.getByTestId('job-logs').waitFor({ state: 'visible' });
        const follow = page.getByTestId('job-log-follow');
        if (!(await follow.isChecked().catch(() => false))) await follow.click();
        let lines = '';
        await waitFor(
          async () => {
            lines =
              (await page
                .getByTestId('job-log-lines')
                .innerText()
                .catch(() => '')) ?? '';
            return /container main started/.test(lines) && /step \d+/.test(lines);
          },
          () => `the log shows ${JSON.stringify(lines.slice(-300))}, expected the start line and steps`,
        );
        log('the log follows the running notebook');
        await page.getByTestId('job-pods').waitFor({ state: 'visible' });
        await page.getByTestId('job-stop').click();
        await page.getByTestId('job-stop-confirm').click();
        await waitForState(page, ['Stopped']);
        log(`${id} Stopped`);
        return id;
      },
      JOB_TIMEOUT_MS * 2 + STEP_TIMEOUT_MS,
    );

    await step('/jobs lists "hello" as Succeeded, "long" and "notebook" as Stopped', async () => {
      await go(page, '/jobs');
      for (const [id, name, state] of [
        [helloId, 'hello', 'Succeeded'],
        [longId, 'long', 'Stopped'],
        [notebookId, 'notebook', 'Stopped'],
      ]) {
        const row = page.locator(`[data-testid="job-row"][data-id="${id}"]`);
        await row.waitFor({ state: 'visible' });
        let seen = null;
        await waitFor(
          async () => {
            seen = await row.getAttribute('data-state');
            return seen === state;
          },
          () => `the row of ${id} shows state ${JSON.stringify(seen)}, expected ${state}`,
        );
        const text = await row.innerText();
        check(text.includes(name), `the row of ${id} does not show the name ${name}: ${JSON.stringify(text)}`);
      }
    });

    if (screenshot) {
      await step('take a screenshot', async () => {
        await page.screenshot({ path: screenshot, fullPage: true });
        log(`screenshot written to ${screenshot}`);
      });
    }
    log('all checks passed');
    return 0;
  } catch (e) {
    await reportFailure(e, current, screenshot);
    return 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

runMain(main);
