// Browser test of the governance flow, with one browser context per person:
//   1. the platform admin creates users lab.lead and stu.dent on /admin/users;
//   2. the admin creates account vision-lab, gives it nvidia-a100-80gb quota (guaranteed 8, max 16)
//      and makes lab.lead its account admin;
//   3. lab.lead selects vision-lab, adds stu.dent as member and limits stu.dent to 2 nvidia-a100-80gb;
//   4. stu.dent selects vision-lab and requests a grant of 4 nvidia-a100-80gb until tomorrow;
//   5. the admin approves it under Approvals → To review;
//   6. stu.dent reloads the account and sees the effective max 16 + 4 = 20;
//   7. a client starts a device sign-in; its link, opened signed out, goes through the sign-in page as stu.dent and
//      back to /device with the code filled in, shows the client and the warning, and Approve hands the polling
//      client a token that is stu.dent's.
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
  createUserInConsole,
  submitAccountInConsole,
} from './lib.mjs';

const ACCOUNT = 'vision-lab';
const MODEL = 'nvidia-a100-80gb';
const LEAD = { username: 'lab.lead', displayName: 'Lab Lead', password: 'Lead-pass-123456' };
const STUDENT = { username: 'stu.dent', displayName: 'Stu Dent', password: 'Student-pass-123456' };

/** A value for <input type="datetime-local"> one day from now, in the browser's (= this machine's) time zone. */
function tomorrowLocal() {
  const d = new Date(Date.now() + 24 * 3600 * 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const admin = { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') };
  const screenshot = process.env.SCREENSHOT || '';
  const reason = `Paper deadline (e2e ${new Date().toISOString()})`;

  const browser = await launchBrowser();

  let current;

  /** A fresh browser context (own cookies and localStorage) for one person, signed in. */
  async function openAs(who) {
    current = await signIn(browser, baseUrl, who, { viewport: { width: 1400, height: 900 } });
    return current;
  }

  async function go(page, path) {
    current = page;
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
  }

  async function selectAccount(page, slug, username) {
    const selector = page.getByTestId('account-selector');
    await selector.waitFor({ state: 'visible' });
    await waitFor(
      async () => (await selector.locator(`option[value="${slug}"]`).count()) > 0,
      () => `the account selector has no option ${slug}`,
    );
    await selector.selectOption(slug);
    await waitFor(
      // Remembered per user, so the next person on this browser starts in their own account.
      async () => (await page.evaluate((u) => window.localStorage.getItem(`crater.account:${u}`), username)) === slug,
      () => `the selected account was not stored as ${slug}`,
    );
  }

  try {
    const adminPage = await step('the platform admin signs in', () => openAs(admin));

    await step('the admin creates lab.lead and stu.dent on /admin/users', async () => {
      await go(adminPage, '/admin/users');
      for (const who of [LEAD, STUDENT]) await createUserInConsole(adminPage, who, { existingIsFine: true });
      await adminPage.getByTestId('user-search').fill('');
      for (const who of [LEAD, STUDENT]) {
        await adminPage.locator(`[data-testid="user-row"][data-username="${who.username}"]`).waitFor({ state: 'visible' });
      }
    });

    await step(`the admin creates account ${ACCOUNT}`, async () => {
      await go(adminPage, '/accounts');
      await adminPage.getByTestId('account-create-open').click();
      await adminPage.getByTestId('account-create-slug').fill(ACCOUNT);
      await adminPage.getByTestId('account-create-name').fill('Vision Lab');
      await submitAccountInConsole(adminPage, ACCOUNT, { existingIsFine: true });
    });

    await step(`the admin sets the ${MODEL} quota to guaranteed 8, max 16`, async () => {
      await adminPage.getByTestId('quota-edit-open').click();
      await adminPage.getByTestId('quota-editor').waitFor({ state: 'visible' });
      // Every resource of the catalogue has its row in the editor.
      await adminPage.locator(`[data-testid="quota-edit-row"][data-resource="${MODEL}"]`).waitFor({ state: 'visible' });
      await adminPage.getByTestId(`quota-guaranteed-${MODEL}`).fill('8');
      await adminPage.getByTestId(`quota-max-${MODEL}`).fill('16');
      await adminPage.getByTestId('quota-save').click();
      await waitFor(
        async () => !(await adminPage.getByTestId('quota-editor').isVisible()),
        () => `the quota editor stayed open: ${JSON.stringify(adminPage.url())}`,
      );
      const max = adminPage.locator(`[data-testid="quota-row"][data-resource="${MODEL}"] [data-testid="quota-effective-max"]`);
      const shown = await waitFor(
        async () => {
          const text = (await max.textContent().catch(() => null))?.trim();
          return text === '16' ? text : null;
        },
        () => `the ${MODEL} quota row does not show max 16`,
      );
      log(`quota ${MODEL}: effective max ${shown}`);
    });

    await step(`the admin makes ${LEAD.username} account admin of ${ACCOUNT}`, async () => {
      await adminPage.getByTestId('member-add-username').fill(LEAD.username);
      await adminPage.getByTestId('member-add-role').selectOption('admin');
      await adminPage.getByTestId('member-add-submit').click();
      const row = adminPage.locator(`[data-testid="member-row"][data-username="${LEAD.username}"]`);
      await row.waitFor({ state: 'visible' });
      await waitFor(
        async () =>
          (await row
            .getByTestId('member-role')
            .inputValue()
            .catch(() => null)) === 'admin',
        () => `${LEAD.username} is not shown as account admin`,
      );
    });

    const leadPage = await step(`${LEAD.username} signs in and selects ${ACCOUNT}`, async () => {
      const page = await openAs(LEAD);
      await selectAccount(page, ACCOUNT, LEAD.username);
      return page;
    });

    await step(`${LEAD.username} adds ${STUDENT.username} and limits them to 2 × ${MODEL}`, async () => {
      await go(leadPage, `/accounts/${ACCOUNT}`);
      await leadPage.getByTestId('account-detail').waitFor({ state: 'visible' });
      await leadPage.getByTestId('member-add-username').fill(STUDENT.username);
      await leadPage.getByTestId('member-add-role').selectOption('member');
      await leadPage.getByTestId('member-add-submit').click();
      const row = leadPage.locator(`[data-testid="member-row"][data-username="${STUDENT.username}"]`);
      await row.waitFor({ state: 'visible' });
      await leadPage.getByTestId(`member-limits-${STUDENT.username}`).click();
      const input = leadPage.getByTestId(`limit-resource-${MODEL}`);
      await input.waitFor({ state: 'visible' });
      await input.fill('2');
      await leadPage.getByTestId('limits-save').click();
      await leadPage.getByTestId('limits-dialog').waitFor({ state: 'hidden' });
      const limits = row.getByTestId('member-effective-limits');
      const text = await waitFor(
        async () => {
          const t = (await limits.innerText()).trim();
          return t.includes(`${MODEL} 2`) ? t : null;
        },
        () => `${STUDENT.username}'s effective limits do not show ${MODEL} 2`,
      );
      log(`${STUDENT.username} limits: ${text}`);
    });

    const studentPage = await step(`${STUDENT.username} signs in and selects ${ACCOUNT}`, async () => {
      const page = await openAs(STUDENT);
      await selectAccount(page, ACCOUNT, STUDENT.username);
      return page;
    });

    await step(`${STUDENT.username} requests 4 × ${MODEL} until tomorrow`, async () => {
      const accountHeaders = [];
      const onRequest = (req) => {
        if (req.url().includes(`/api/v1/accounts/${ACCOUNT}`)) accountHeaders.push(req.headers()['x-crater-account']);
      };
      studentPage.on('request', onRequest);
      await go(studentPage, `/accounts/${ACCOUNT}`);
      await studentPage.getByTestId('account-detail').waitFor({ state: 'visible' });
      studentPage.off('request', onRequest);
      check(
        accountHeaders.length > 0 && accountHeaders.every((h) => h === ACCOUNT),
        `requests did not carry X-Crater-Account: ${ACCOUNT} (saw ${JSON.stringify(accountHeaders)})`,
      );
      await studentPage.getByTestId('request-grant').click();
      await studentPage.getByTestId('grant-resource').selectOption(MODEL);
      await studentPage.getByTestId('grant-amount').fill('4');
      await studentPage.getByTestId('grant-until').fill(tomorrowLocal());
      await studentPage.getByTestId('grant-reason').fill(reason);
      await studentPage.getByTestId('grant-submit').click();
      await waitFor(
        async () => {
          if (await studentPage.getByTestId('grant-requested').isVisible()) return true;
          const err = await formErrorText(studentPage);
          if (err) throw new CheckFailed(`the grant request was refused: ${err.text} (${err.code})`);
          return false;
        },
        () => 'the grant request was not confirmed',
      );
    });

    await step('the admin approves the request under "To review"', async () => {
      await go(adminPage, '/approvals');
      await adminPage.getByTestId('approvals-tab-review').click();
      const row = adminPage.locator('[data-testid="approval-row"][data-state="pending"]', { hasText: reason });
      await row.waitFor({ state: 'visible' });
      await row.getByTestId('approval-approve').click();
      await waitFor(
        async () => {
          if ((await row.count()) === 0) return true;
          const err = await formErrorText(adminPage);
          if (err) throw new CheckFailed(`approving failed: ${err.text} (${err.code})`);
          return false;
        },
        () => 'the request is still pending after approving it',
      );
      await adminPage.getByTestId('approvals-state').selectOption('approved');
      await adminPage.locator('[data-testid="approval-row"][data-state="approved"]', { hasText: reason }).waitFor({ state: 'visible' });
      log('request approved');
    });

    await step(`${STUDENT.username} sees the effective max 20 for ${MODEL}`, async () => {
      await go(studentPage, `/accounts/${ACCOUNT}`);
      await studentPage.reload({ waitUntil: 'domcontentloaded' });
      const max = studentPage.locator(`[data-testid="quota-row"][data-resource="${MODEL}"] [data-testid="quota-effective-max"]`);
      let last = null;
      await waitFor(
        async () => {
          last = (await max.textContent().catch(() => null))?.trim() ?? null;
          return last === '20';
        },
        () => `quota-effective-max for ${MODEL} is ${JSON.stringify(last)}, expected "20"`,
      );
      log(`${STUDENT.username} sees effective max ${last}`);
    });

    await step(`a device sign-in is approved by ${STUDENT.username} after signing in on its link`, async () => {
      const form = (fields) => ({
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      const started = await (await fetch(`${baseUrl}/api/v1/auth/device`, form({ client_name: 'e2e terminal' }))).json();
      check(/^[B-Z]{4}-[B-Z]{4}$/.test(started.user_code), `user code ${started.user_code}`);
      const poll = async () =>
        (
          await fetch(
            `${baseUrl}/api/v1/auth/device/token`,
            form({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code }),
          )
        ).json();
      check((await poll()).error === 'authorization_pending', 'the first poll is pending');
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      current = page;
      await page.goto(started.verification_uri_complete, { waitUntil: 'domcontentloaded' });
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByTestId('login-username').fill(STUDENT.username);
      await page.getByTestId('login-password').fill(STUDENT.password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL((url) => url.pathname === '/device' && url.searchParams.get('code') === started.user_code);
      await page.getByTestId('device-client').filter({ hasText: 'e2e terminal' }).waitFor({ state: 'visible' });
      await page.getByTestId('device-warning').waitFor({ state: 'visible' });
      await page.getByTestId('device-approve').click();
      await page.getByTestId('device-approved').waitFor({ state: 'visible' });
      const issued = await poll();
      check(
        issued.username === STUDENT.username && /^crt_/.test(issued.access_token),
        `the token: ${JSON.stringify(issued.error ?? issued.username)}`,
      );
      const me = await (await fetch(`${baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${issued.access_token}` } })).json();
      check(me.username === STUDENT.username, `the token is ${me.username}'s`);
      check((await poll()).error === 'invalid_grant', 'a second poll gets nothing');
      log(`device sign-in ${started.user_code} approved; the token is ${me.username}'s`);
      await context.close();
    });

    if (screenshot) {
      await step('take a screenshot', async () => {
        await studentPage.screenshot({ path: screenshot, fullPage: true });
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
