// Browser test of the Crater console: sign-in, accelerator overview, language switch.
//
// Environment:
//   CRATER_URL       base URL of a running Crater server (e.g. http://127.0.0.1:8123)
//   CRATER_USER      user name to sign in with
//   CRATER_PASSWORD  that user's password
//   EXPECT_TOTALS    JSON object: accelerator model -> expected total device count
//   SCREENSHOT       path of the full-page PNG screenshot to write (optional)
//   CHROMIUM         Chromium executable (default /usr/bin/chromium)
//
// Exits 0 when every check passes, 1 otherwise (with the reasons on stderr).

import { chromium } from 'playwright-core';

const STEP_TIMEOUT_MS = 30_000;

function env(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') {
    if (fallback !== undefined) return fallback;
    throw new Error(`environment variable ${name} is not set`);
  }
  return value;
}

function log(message) {
  console.log(`[e2e] ${message}`);
}

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/** Runs one named step, bounded in time, so a failure says where it happened. */
async function step(name, fn) {
  log(`step: ${name}`);
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${STEP_TIMEOUT_MS / 1000}s`)), STEP_TIMEOUT_MS + 2_000);
  });
  try {
    return await Promise.race([fn(), timeout]);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new Error(`step "${name}" failed: ${reason}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` until it returns a non-null value or the step timeout passes. */
async function waitFor(probe, describeFailure) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let last;
  for (;;) {
    last = await probe();
    if (last !== null && last !== undefined && last !== false) return last;
    if (Date.now() > deadline) throw new CheckFailed(describeFailure());
    await new Promise((r) => setTimeout(r, 250));
  }
}

function parseExpectedTotals(raw) {
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new Error(`EXPECT_TOTALS is not valid JSON: ${e.message}`);
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

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    timeout: STEP_TIMEOUT_MS,
  });
  let page;
  try {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    page.on('pageerror', (err) => log(`page error: ${err.message}`));
    page.on('response', (response) => {
      if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') log(`console error: ${msg.text()}`);
    });

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
      const rows = await page.locator('[data-testid="node-row"]').count();
      log(`node rows: ${rows}`);
      check(rows > 0, 'the node table has no rows');
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
    console.error(`[e2e] FAILED: ${e instanceof Error ? e.message : String(e)}`);
    if (page) {
      try {
        console.error(`[e2e] page URL at failure: ${page.url()}`);
      } catch {
        // ignore
      }
      if (screenshot) {
        try {
          await page.screenshot({ path: screenshot, fullPage: true, timeout: 10_000 });
          console.error(`[e2e] failure screenshot written to ${screenshot}`);
        } catch (shotError) {
          console.error(`[e2e] could not take a screenshot: ${shotError.message}`);
        }
      }
    }
    return 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/** Any 5xx answer seen by a page fails the run, even when every visible check passed. */
const serverErrors = [];

main().then(
  (code) => {
    if (code === 0 && serverErrors.length > 0) {
      console.error(`[e2e] FAILED: the server answered with errors:\n  ${serverErrors.join('\n  ')}`);
      process.exit(1);
    }
    process.exit(code);
  },
  (e) => {
    console.error(`[e2e] FAILED: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
