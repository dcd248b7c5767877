// Browser test of the Crater console: sign-in, accelerator overview, language switch.
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

import { env, log, check, step, waitFor, launchBrowser, watchPage, reportFailure, runMain } from './lib.mjs';

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

  const browser = await launchBrowser();
  let page;
  try {
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
