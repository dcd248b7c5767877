// Browser test of the waiting panel:
//   1. through the API, the admin creates wait.user and the account wait-lab (4 A100 at most), and wait.user
//      starts a 3-GPU job with a 2 h limit and submits a 2-GPU job, which must wait;
//   2. wait.user opens the waiting job: the panel shows the reason (AccountQuotaExceeded), the place in line,
//      a start estimate and the suggestion to run with fewer accelerators (screenshot);
//   3. following the suggestion submits a 1-GPU copy in its place, which runs; the original is stopped.
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
  apiCreateUser,
  apiCreateAccount,
  apiSetUpAccount,
  signIn,
} from './lib.mjs';

const USER = { username: 'wait.user', password: 'Wait-pass-12345' };
const ACCOUNT = 'wait-lab';

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const screenshot = process.env.SCREENSHOT || '';

  const api = apiClient(baseUrl);

  const job = (name, gpus, timeLimit) => ({
    name,
    kind: 'custom',
    image: 'python:3.12',
    command: ['python', 'train.py'],
    timeLimit,
    resources: { cpu: '2', memory: '8Gi', acceleratorModel: 'nvidia-a100-80gb', accelerators: gpus },
  });

  const browser = await launchBrowser();
  let page;
  try {
    const { holder, waiter } = await step(
      'set up the account and a waiting job through the API',
      async () => {
        const admin = await apiLogin(api, { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') });
        await apiCreateUser(api, admin, { username: USER.username, displayName: 'Wait User', password: USER.password });
        await apiCreateAccount(api, admin, { slug: ACCOUNT, name: 'Wait Lab' });
        await apiSetUpAccount(api, admin, ACCOUNT, {
          quota: [
            { resource: 'nvidia-a100-80gb', guaranteed: '4', max: '4' },
            { resource: 'cpu', guaranteed: '64', max: '64' },
            { resource: 'memory', guaranteed: '256Gi', max: '256Gi' },
          ],
          members: { [USER.username]: 'member' },
        });
        const user = await apiLogin(api, USER);
        const h = (await api(user, 'POST', '/jobs', job('holder', 3, '2h'), [201], ACCOUNT)).id;
        await waitFor(
          async () => (await api(user, 'GET', `/jobs/${h}`)).job.state === 'Running',
          () => `the holder ${h} did not run`,
          60_000,
        );
        const w = (await api(user, 'POST', '/jobs', job('waiter', 2, '1h'), [201], ACCOUNT)).id;
        await waitFor(
          async () => (await api(user, 'GET', `/jobs/${w}`)).job.reasons.length > 0,
          () => `the waiter ${w} got no reason`,
        );
        log(`holder ${h} runs; waiter ${w} waits`);
        return { holder: h, waiter: w };
      },
      STEP_TIMEOUT_MS * 4,
    );

    page = await step(`${USER.username} signs in and opens the waiting job`, async () => {
      const p = await signIn(browser, baseUrl, USER);
      await p.goto(`${baseUrl}/jobs/${waiter}`, { waitUntil: 'domcontentloaded' });
      await p.getByTestId('job-waiting').waitFor({ state: 'visible' });
      return p;
    });

    await step('the panel says why, where, when, and what would start it', async () => {
      await page.locator('[data-testid="job-reason"][data-code="AccountQuotaExceeded"]').first().waitFor({ state: 'visible' });
      const position = page.getByTestId('job-wait-position');
      await position.waitFor({ state: 'visible' });
      check((await position.getAttribute('data-in-account')) === '1', 'the job is not first in its account');
      const estimate = page.getByTestId('job-wait-estimate');
      await estimate.waitFor({ state: 'visible' });
      check((await estimate.getAttribute('data-known')) === 'true', 'the estimate is unknown');
      const text = await estimate.innerText();
      // The holder is the user's own job: named, and linked to its page.
      const waitsFor = page.getByTestId('job-wait-waits-for');
      const names = await waitsFor.allInnerTexts();
      const links = await waitsFor.evaluateAll((els) => els.map((e) => e.getAttribute('href')));
      check(
        names.some((w) => w.includes('holder')) && links.includes(`/jobs/${holder}`),
        `the estimate does not name the holder ${holder}: ${JSON.stringify({ names, links })}`,
      );
      await page.locator('[data-testid="job-wait-suggestion"][data-code="FewerAccelerators"]').waitFor({ state: 'visible' });
      log(`estimate: ${text.replace(/\s+/g, ' ').trim()}`);
      if (screenshot) {
        await page.screenshot({ path: screenshot, fullPage: true });
        log(`screenshot written to ${screenshot}`);
      }
    });

    await step(
      'following the suggestion starts a 1-GPU copy in its place',
      async () => {
        await page.locator('[data-testid="job-wait-suggestion"][data-code="FewerAccelerators"]').getByTestId('job-wait-follow').click();
        await page.getByTestId('job-wait-follow-confirm').click();
        const id = await waitFor(
          async () => {
            const m = /^\/jobs\/([^/]+)$/.exec(new URL(page.url()).pathname);
            return m && m[1] !== waiter ? m[1] : null;
          },
          () => 'following the suggestion did not lead to the new job',
        );
        let state = null;
        await waitFor(
          async () => {
            state =
              (
                await page
                  .getByTestId('job-state')
                  .textContent({ timeout: 1000 })
                  .catch(() => null)
              )?.trim() ?? null;
            return state === 'Running';
          },
          () => `the new job ${id} is ${state}, expected Running`,
          60_000,
        );
        log(`${id} runs in place of ${waiter}`);
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
