// Browser test of accounting:
//   1. the platform admin sets the price of an A100 on /prices and sees it in force;
//   2. through the API: a member of account acct-lab runs a one-A100 job for a few seconds, and settlement runs;
//   3. the admin sets a budget of 100 on the account page and downloads the month's usage as CSV;
//   4. the member opens the account page and sees the balance, what was spent, the burn rate and a bar of the
//      daily cost chart.
//
// Environment:
//   CRATER_URL       base URL of a running Crater server (e.g. http://127.0.0.1:8080)
//   CRATER_USER      platform admin user name
//   CRATER_PASSWORD  that user's password
//   SCREENSHOT       path of the full-page PNG screenshot to write (optional)
//   CHROMIUM         Chromium executable (default /usr/bin/chromium)
//
// Exits 0 when every check passes, 1 otherwise (with the reasons on stderr).

import { readFile } from 'node:fs/promises';
import {
  env,
  log,
  check,
  step,
  waitFor,
  launchBrowser,
  signIn,
  screenshot,
  reportFailure,
  runMain,
  apiClient,
  apiLogin,
  apiCreateUser,
  apiCreateAccount,
  apiSetUpAccount,
} from './lib.mjs';

const ACCOUNT = 'acct-lab';
const MODEL = 'nvidia-a100-80gb';
const MEMBER = { username: 'acct.mem', password: 'Member-pass-123456' };

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const admin = { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') };
  const shot = process.env.SCREENSHOT || '';
  const api = apiClient(baseUrl);
  const browser = await launchBrowser();
  let page;
  try {
    page = await signIn(browser, baseUrl, admin);

    await step('the admin sets the price of an A100 on the prices page', async () => {
      await page.goto(`${baseUrl}/prices`);
      await page.getByTestId('price-form').waitFor();
      await page.getByTestId('price-resource').selectOption(MODEL);
      await page.getByTestId('price-amount').fill('2.5');
      await page.getByTestId('price-save').click();
      await waitFor(
        async () => {
          const row = page.locator(`[data-testid="price-current"] [data-testid="price-row"][data-resource="${MODEL}"]`);
          return (await row.count()) > 0 && (await row.getByTestId('price-value').innerText()).includes('2.5');
        },
        () => 'the A100 price 2.5 never showed among the prices in force',
      );
    });

    const adminToken = await apiLogin(api, admin);
    await step('a member runs a one-A100 job for a few seconds and settlement charges it', async () => {
      // The member and the account are new here: one that exists already (409) fails the run.
      await apiCreateUser(api, adminToken, { ...MEMBER, displayName: 'Acct Member' }, [200, 201, 204]);
      await apiCreateAccount(api, adminToken, { slug: ACCOUNT, name: 'Accounting Lab' }, [200, 201, 204]);
      await apiSetUpAccount(api, adminToken, ACCOUNT, {
        quota: [
          { resource: MODEL, guaranteed: '4', max: '4' },
          { resource: 'cpu', guaranteed: '16', max: '16' },
          { resource: 'memory', guaranteed: '64Gi', max: '64Gi' },
        ],
        members: { [MEMBER.username]: 'member' },
      });
      const member = await apiLogin(api, MEMBER);
      const job = await api(
        member,
        'POST',
        '/jobs',
        {
          name: 'charged',
          kind: 'custom',
          image: 'busybox',
          command: ['sleep', '600'],
          timeLimit: '1h',
          resources: { cpu: '2', memory: '8Gi', acceleratorModel: MODEL, accelerators: 1 },
        },
        [200, 201, 204],
        ACCOUNT,
      );
      const state = async () => (await api(member, 'GET', `/jobs/${job.id}`)).job.state;
      await waitFor(
        async () => (await state()) === 'Running',
        () => `job ${job.id} never ran`,
        60_000,
      );
      await new Promise((r) => setTimeout(r, 3000));
      await api(member, 'POST', `/jobs/${job.id}/stop`);
      await waitFor(
        async () => (await state()) === 'Stopped',
        () => `job ${job.id} never stopped`,
        60_000,
      );
      await waitFor(
        async () => (await api(adminToken, 'POST', '/accounting/settle')).run > 0,
        () => 'settlement never ran',
      );
    });

    await step('the admin sets a budget of 100 on the account page', async () => {
      await page.goto(`${baseUrl}/accounts/${ACCOUNT}`);
      await page.getByTestId('budget-section').waitFor();
      await page.getByTestId('budget-none').waitFor();
      await page.getByTestId('budget-set').click();
      await page.getByTestId('budget-amount').fill('100');
      await page.getByTestId('budget-policy-hard').check();
      await page.getByTestId('budget-save').click();
      await waitFor(
        async () =>
          (await page.getByTestId('budget-info').count()) > 0 && (await page.getByTestId('budget-info').innerText()).includes('100'),
        () => 'the budget of 100 never showed',
      );
      check((await page.getByTestId('budget-balance').innerText()).includes('100'), 'the balance starts at the budget');
    });

    await step('the admin downloads the month by user as CSV', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('usage-csv').click()]);
      const csv = await readFile(await download.path(), 'utf8');
      const lines = csv.trim().split(/\r?\n/);
      check(
        lines[0] ===
          'account,from,to,group,resource,unit,held,cost,currency,measured,used,unknown,efficiency,idle_cost,jobs,wait_mean_s,wait_p90_s',
        `the CSV header: ${lines[0]}`,
      );
      check(
        lines.some((l) => l.startsWith(`${ACCOUNT},`) && l.includes(`,${MEMBER.username},${MODEL},device-hours,`)),
        `the CSV has the member's A100 row: ${csv}`,
      );
    });

    await screenshot(page, shot, 'admin');
    await page.context().close();

    page = await signIn(browser, baseUrl, MEMBER);
    await step("the member sees the account's balance, spending, burn rate and daily cost", async () => {
      await page.goto(`${baseUrl}/accounts/${ACCOUNT}`);
      await page.getByTestId('budget-section').waitFor();
      await page.getByTestId('budget-balance').waitFor();
      const spent = await page.getByTestId('budget-spent').innerText();
      check(!/^0(\s|$)/.test(spent.trim()), `something was spent this period: ${spent}`);
      const burn = await page.getByTestId('budget-burn').innerText();
      check(burn.trim() !== '', 'the burn rate is stated');
      await page.getByTestId('daily-cost').waitFor();
      check((await page.getByTestId('daily-cost-bar').count()) > 0, 'the daily cost chart has bars');
      await page.getByTestId('gpu-use').waitFor();
      await page.getByTestId('gpu-use-row').first().waitFor();
      check(
        (await page.getByTestId('gpu-use-row').first().getAttribute('data-resource')) === MODEL,
        "the month's GPU-hours held and used list the model the member's job held",
      );
      check((await page.getByTestId('budget-set').count()) === 0, 'a member is offered no budget form');
    });
    await screenshot(page, shot);
    log('all checks passed');
    return 0;
  } catch (e) {
    await reportFailure(e, page, shot);
    return 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

runMain(main);
