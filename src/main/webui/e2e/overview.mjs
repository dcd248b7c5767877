// Browser test of the Crater console: sign-in, accelerator overview, a node's detail, the free GPUs, language switch.
//   1. through the API, the admin sets up the account fleet-lab (2 A100s) with a member, who starts a job on one A100;
//   2. a wrong password is refused; the admin signs in and sees the accelerator totals and the node table;
//   3. the admin clicks the name of the node the job runs on and sees the job and its pod on the node's page;
//   4. the member opens Free GPUs and sees the A100s free (the total less the job's card) and the one card
//      fleet-lab may still use;
//   5. the admin switches the language to 简体中文.
//
// Environment:
//   CRATER_URL       base URL of a running Crater server (e.g. http://127.0.0.1:8080)
//   CRATER_USER      user name to sign in with
//   CRATER_PASSWORD  that user's password
//   EXPECT_TOTALS    JSON object: accelerator model -> expected total device count
//   SCREENSHOT       path of the full-page PNG screenshot to write (optional)
//   CHROMIUM         Chromium executable (default /usr/bin/chromium)
//
// Exits 0 when every check passes, 1 otherwise (with the reasons on stderr).

import {
  STEP_TIMEOUT_MS,
  env,
  log,
  check,
  step,
  waitFor,
  launchBrowser,
  watchPage,
  reportFailure,
  runMain,
  apiClient,
  apiLogin,
  apiCreateUser,
  apiCreateAccount,
  apiSetUpAccount,
  signIn,
  screenshot as shoot,
} from './lib.mjs';

const MODEL = 'nvidia-a100-80gb';
const ACCOUNT = 'fleet-lab';
const MEMBER = { username: 'fleet.user', password: 'Fleet-pass-12345' };

/** Through the API: the account with 2 A100s and its member, whose job runs on one; returns its id and node. */
async function startJob(api, admin) {
  const token = await apiLogin(api, admin);
  await apiCreateUser(api, token, { username: MEMBER.username, displayName: 'Fleet User', password: MEMBER.password });
  await apiCreateAccount(api, token, { slug: ACCOUNT, name: 'Fleet Lab' });
  await apiSetUpAccount(api, token, ACCOUNT, {
    quota: [
      { resource: MODEL, guaranteed: '2', max: '2' },
      { resource: 'cpu', guaranteed: '16', max: '16' },
      { resource: 'memory', guaranteed: '64Gi', max: '64Gi' },
    ],
    members: { [MEMBER.username]: 'member' },
  });
  const member = await apiLogin(api, MEMBER);
  const body = {
    name: 'fleet-train',
    kind: 'custom',
    image: 'python:3.12',
    command: ['python', 'train.py'],
    env: { SIM_DURATION: '30m' },
    resources: { cpu: '2', memory: '8Gi', acceleratorModel: MODEL, accelerators: 1 },
  };
  const id = (await api(member, 'POST', '/jobs', body, [201], ACCOUNT)).id;
  let detail = null;
  await waitFor(
    async () => {
      detail = await api(member, 'GET', `/jobs/${id}`);
      return detail.job.state === 'Running' && detail.pods.some((p) => p.node);
    },
    () => `the job ${id} is ${detail?.job.state}, expected Running on a node`,
    60_000,
  );
  const node = detail.pods.find((p) => p.node).node;
  log(`job ${id} runs on ${node}`);
  return { id, node };
}

function parseExpectedTotals(raw) {
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new Error(`EXPECT_TOTALS is not valid JSON: ${e.message}`, { cause: e });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('EXPECT_TOTALS must be a JSON object of model -> total');
  }
  for (const [model, total] of Object.entries(parsed)) {
    if (!Number.isInteger(total) || total < 0) throw new Error(`EXPECT_TOTALS[${model}] is not a whole number`);
  }
  return parsed;
}

async function readCards(page) {
  return page.$$eval('[data-testid="accelerator-card"]', (cards) =>
    cards.map((card) => ({
      model: card.getAttribute('data-model'),
      free: card.querySelector('[data-testid="accelerator-free"]')?.textContent?.trim() ?? null,
      total: card.querySelector('[data-testid="accelerator-total"]')?.textContent?.trim() ?? null,
    })),
  );
}

function compareCards(cards, expected) {
  const problems = [];
  for (const [model, total] of Object.entries(expected)) {
    const matching = cards.filter((c) => c.model === model);
    if (matching.length === 0) {
      problems.push(`no card for model ${model}`);
      continue;
    }
    if (matching.length > 1) problems.push(`${matching.length} cards for model ${model}`);
    const card = matching[0];
    const shownTotal = Number(card.total);
    const shownFree = Number(card.free);
    if (!Number.isInteger(shownTotal) || card.total === '') problems.push(`${model}: total "${card.total}" is not a number`);
    else if (shownTotal !== total) problems.push(`${model}: total is ${shownTotal}, expected ${total}`);
    if (!Number.isInteger(shownFree) || card.free === '') problems.push(`${model}: free "${card.free}" is not a number`);
    else if (shownFree < 0 || shownFree > shownTotal) problems.push(`${model}: free ${shownFree} is not within 0..${shownTotal}`);
  }
  return problems;
}

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const user = env('CRATER_USER');
  const password = env('CRATER_PASSWORD');
  const expected = parseExpectedTotals(env('EXPECT_TOTALS'));
  const screenshot = process.env.SCREENSHOT || '';

  const api = apiClient(baseUrl);
  const browser = await launchBrowser();
  let page;
  try {
    const job = await step(
      'a member starts a job on one A100, through the API',
      () => startJob(api, { username: user, password }),
      STEP_TIMEOUT_MS * 3,
    );

    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    watchPage(page, '');

    await step('open the console and land on the login page', async () => {
      await page.goto(`${baseUrl}/`, { waitUntil: 'domcontentloaded' });
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByTestId('login-username').waitFor({ state: 'visible' });
    });

    await step('a wrong password shows an error', async () => {
      await page.getByTestId('login-username').fill(user);
      await page.getByTestId('login-password').fill(`${password}-wrong`);
      await page.getByTestId('login-submit').click();
      const error = page.getByTestId('login-error');
      await error.waitFor({ state: 'visible' });
      const text = (await error.textContent())?.trim() ?? '';
      const code = await error.getAttribute('data-code');
      log(`login error shown: "${text}" (code ${code})`);
      check(text.length > 0, 'the login error message is empty');
      check(code === 'InvalidCredentials', `expected error code InvalidCredentials, got ${code}`);
      check(new URL(page.url()).pathname === '/login', 'left the login page after a wrong password');
    });

    await step('sign in with the right password', async () => {
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByTestId('user-name').waitFor({ state: 'visible' });
    });

    await step('accelerator cards show the expected totals', async () => {
      await page.locator('[data-testid="accelerator-card"]').first().waitFor({ state: 'visible' });
      let problems = [];
      let cards = [];
      await waitFor(
        async () => {
          cards = await readCards(page);
          problems = compareCards(cards, expected);
          return problems.length === 0;
        },
        () => `${problems.join('; ')} (cards shown: ${JSON.stringify(cards)})`,
      );
      for (const c of cards) log(`card ${c.model}: ${c.free} / ${c.total}`);
      // The node table is read apart from the cards, so it may come a moment after them.
      await page.locator('[data-testid="node-row"]').first().waitFor({ state: 'visible' });
      const rows = await page.locator('[data-testid="node-row"]').count();
      log(`node rows: ${rows}`);
      check(rows > 0, 'the node table has no rows');
    });

    await step('the admin opens the node of the running job and sees the job and its pod there', async () => {
      await page.locator(`[data-testid="node-row"][data-node="${job.node}"] [data-testid="node-link"]`).click();
      await page.waitForURL((url) => url.pathname === `/admin/nodes/${job.node}`);
      await page.locator(`[data-testid="node-detail"][data-node="${job.node}"]`).waitFor({ state: 'visible' });
      const row = page.locator(`[data-testid="node-job"][data-id="${job.id}"]`);
      await row.waitFor({ state: 'visible' });
      const jobText = (await row.innerText()).replace(/\s+/g, ' ');
      log(`job row: ${jobText}`);
      check(
        jobText.includes('fleet-train') && jobText.includes(MEMBER.username) && jobText.includes(ACCOUNT),
        `the job row misses name, owner or account: ${jobText}`,
      );
      check((await row.getByTestId('status-badge').getAttribute('data-status')) === 'Running', 'the job is not shown Running');
      const pod = page.locator('[data-testid="node-pod"]').filter({ has: page.locator(`a[href="/jobs/${job.id}"]`) });
      await pod.first().waitFor({ state: 'visible' });
      const accelerators = (await pod.first().getByTestId('node-pod-accelerators').innerText()).trim();
      const cpu = (await pod.first().getByTestId('node-pod-cpu').innerText()).trim();
      const memory = (await pod.first().getByTestId('node-pod-memory').innerText()).trim();
      log(`pod ${await pod.first().getAttribute('data-name')}: ${cpu}, ${memory}, ${accelerators}`);
      check(/^1 × /.test(accelerators), `the pod's accelerators read "${accelerators}", expected 1 × the model`);
      check(cpu === '2 cores', `the pod's CPU request reads "${cpu}", expected 2 cores`);
      check(memory === '8 GiB', `the pod's memory request reads "${memory}", expected 8 GiB`);
      await shoot(page, screenshot, 'node');
    });

    await step('the admin makes the node exclusive to the account, then shares it again', async () => {
      const health = page.getByTestId('node-health-state');
      await health.waitFor({ state: 'visible' });
      check((await health.getAttribute('data-state')) === 'HEALTHY', `the node's GPU health is ${await health.getAttribute('data-state')}`);
      await page.getByTestId('node-make-exclusive').click();
      const dialog = page.getByTestId('node-exclusive-dialog');
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByTestId('node-exclusive-search').fill(ACCOUNT);
      const select = dialog.getByTestId('node-exclusive-account');
      await waitFor(
        async () => (await select.locator(`option[value="${ACCOUNT}"]`).count()) === 1,
        () => `${ACCOUNT} is not offered in the exclusive dialog`,
      );
      await select.selectOption(ACCOUNT);
      await dialog.getByTestId('node-exclusive-submit').click();
      const badge = page.getByTestId('node-exclusive');
      await badge.waitFor({ state: 'visible' });
      const badgeText = (await badge.innerText()).trim();
      log(`exclusive badge: "${badgeText}"`);
      check(badgeText === `Exclusive to ${ACCOUNT}`, `the badge reads "${badgeText}"`);
      // The taint comes from the node as the server reads it again.
      let taints = '';
      await waitFor(
        async () => {
          taints = (await page.getByTestId('node-detail-taints').innerText()).trim();
          return taints.includes('crater.io/exclusive=');
        },
        () => `the node's taints read "${taints}", without crater.io/exclusive`,
      );
      log(`taints: ${taints}`);
      await shoot(page, screenshot, 'node-exclusive');
      await page.getByTestId('node-share').click();
      await page.getByTestId('node-make-exclusive').waitFor({ state: 'visible' });
      await waitFor(
        async () => {
          taints = (await page.getByTestId('node-detail-taints').innerText()).trim();
          return !taints.includes('crater.io/exclusive') && (await page.getByTestId('node-exclusive').count()) === 0;
        },
        () => `the node still reads exclusive after sharing (taints "${taints}")`,
      );
      await page.getByTestId('nav-overview').click();
      await page.locator('[data-testid="accelerator-card"]').first().waitFor({ state: 'visible' });
    });

    await step('the member opens Free GPUs and sees the free A100s and what the account may still use', async () => {
      const member = await signIn(browser, baseUrl, MEMBER);
      await member.getByTestId('nav-free-gpus').click();
      await member.waitForURL((url) => url.pathname === '/free-gpus');
      const model = member.locator(`[data-testid="free-model"][data-model="${MODEL}"]`);
      await model.waitFor({ state: 'visible' });
      const wanted = expected[MODEL] === undefined ? null : expected[MODEL] - 1;
      let shown = null;
      await waitFor(
        async () => {
          shown = Number((await model.getByTestId('free-model-free').innerText()).trim());
          return wanted === null ? Number.isInteger(shown) : shown === wanted;
        },
        () => `${MODEL} shows ${shown} free, expected ${wanted}`,
      );
      const numbers = (
        await member.locator(`[data-testid="free-chart-row"][data-model="${MODEL}"] [data-testid="free-chart-numbers"]`).innerText()
      ).trim();
      log(`${MODEL}: ${shown} free; the chart says "${numbers}"`);
      check(numbers.startsWith(`${shown} free / `), `the chart's numbers "${numbers}" do not match ${shown} free`);
      const may = member.locator(
        `[data-testid="free-account"][data-account="${ACCOUNT}"] [data-testid="free-room"][data-model="${MODEL}"] [data-testid="free-room-may"]`,
      );
      const mayText = (await may.innerText()).trim();
      log(`${ACCOUNT} may still use ${mayText} of ${MODEL}`);
      check(mayText === '1 card', `${ACCOUNT} may still use "${mayText}", expected 1 card`);
      await shoot(member, screenshot, 'free-gpus');
      await member.context().close();
    });

    await step('switch the language to 简体中文', async () => {
      const nav = page.getByTestId('app-nav');
      const before = (await nav.innerText()).trim();
      const titleBefore = (await page.getByTestId('page-title').innerText()).trim();
      await page.getByTestId('language-select').selectOption({ label: '简体中文' });
      await waitFor(
        async () => (await page.evaluate(() => document.documentElement.lang)) === 'zh-CN',
        () => 'the document language did not become zh-CN',
      );
      const after = await waitFor(
        async () => {
          const text = (await nav.innerText()).trim();
          return text !== before ? text : null;
        },
        () => `the navigation text did not change (still "${before}")`,
      );
      const titleAfter = (await page.getByTestId('page-title').innerText()).trim();
      log(`navigation: "${before.replace(/\s+/g, ' ')}" -> "${after.replace(/\s+/g, ' ')}"`);
      log(`title: "${titleBefore}" -> "${titleAfter}"`);
      check(/[\u4e00-\u9fff]/.test(after), 'the navigation shows no Chinese text after the switch');
      check(titleAfter !== titleBefore, `the page title did not change ("${titleBefore}")`);
      // The cards must still be there after the switch.
      const cards = await readCards(page);
      const problems = compareCards(cards, expected);
      check(problems.length === 0, `after the language switch: ${problems.join('; ')}`);
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
    await reportFailure(e, page, screenshot);
    return 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

runMain(main);
