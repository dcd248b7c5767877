// Browser test of the file manager: a folder of 10,000 entries read from its event stream (every entry, the first
// 500 shown, then more, then filtered by name), and a folder uploaded from the computer with a progress bar per file.
//
// Environment:
//   CRATER_URL       base URL of a running Crater server
//   CRATER_USER      user name to sign in with (the administrator; their own space is used)
//   CRATER_PASSWORD  that user's password
//   CRATER_HOME      the server's home: the 10,000 files are written straight into the user's space there
//   SCREENSHOT       path of the full-page PNG screenshot to write (optional)
//
// Exits 0 when every check passes, 1 otherwise.

import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env, log, check, step, waitFor, launchBrowser, signIn, screenshot, reportFailure, runMain } from './lib.mjs';

const ENTRIES = 10_000;
const name = (i) => `f${String(i).padStart(5, '0')}.bin`;

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const who = { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') };
  const home = env('CRATER_HOME');
  const shot = process.env.SCREENSHOT || '';
  const local = mkdtempSync(join(tmpdir(), 'crater-e2e-files-'));
  const browser = await launchBrowser();
  let page;
  try {
    page = await signIn(browser, baseUrl, who);

    await step('make the folder "big" from the file manager', async () => {
      await page.goto(`${baseUrl}/files/user`, { waitUntil: 'domcontentloaded' });
      await page.getByTestId('new-folder').click();
      await page.getByTestId('new-folder-name').fill('big');
      await page.getByTestId('new-folder-create').click();
      await page.locator('[data-testid="file-row"][data-name="big"]').waitFor({ state: 'visible' });
    });

    await step(`write ${ENTRIES} files into it on the server's disk`, async () => {
      const folder = join(home, 'spaces', 'users', who.username, 'big');
      check(statSync(folder).isDirectory(), `${folder} is not the folder just made`);
      // Written in reverse so the disk's order is not the listing's.
      for (let i = ENTRIES - 1; i >= 0; i--) writeFileSync(join(folder, name(i)), String(i));
    });

    await step('open it: every entry comes from the stream, the first 500 in order are shown', async () => {
      const started = Date.now();
      await page.locator('[data-testid="file-row"][data-name="big"]').getByRole('link', { name: 'big/' }).click();
      const count = page.getByTestId('file-count');
      await waitFor(
        async () => (await count.textContent().catch(() => '')) === `500 of ${ENTRIES.toLocaleString('en-US')} entries`,
        () => 'the count never said 500 of 10,000 entries',
        60_000,
      );
      await page.getByTestId('file-streaming').waitFor({ state: 'detached' });
      log(`10,000 entries listed in ${Date.now() - started} ms`);
      const names = await page.$$eval('[data-testid="file-row"]', (rows) => rows.map((r) => r.getAttribute('data-name')));
      check(names.length === 500, `${names.length} rows shown, expected 500`);
      check(names[0] === name(0) && names[499] === name(499), `rows run ${names[0]} … ${names[499]}`);
      check((await page.getByTestId('load-more').count()) === 0, 'a page-by-page button shows beside the stream');
    });

    await step('show 500 more, then filter by name', async () => {
      await page.getByTestId('show-more').click();
      await waitFor(
        async () => (await page.getByTestId('file-row').count()) === 1000,
        () => 'show more did not show 1,000 rows',
      );
      await page.getByTestId('file-filter').fill('F0999');
      await waitFor(
        async () => (await page.getByTestId('file-row').count()) === 10,
        () => 'the filter did not leave 10 rows',
      );
      const text = (await page.getByTestId('file-count').textContent())?.trim();
      check(text === '10 of 10 matching, 10,000 entries in all', `the count says "${text}"`);
      await screenshot(page, shot, 'big-folder');
    });

    await step('upload a folder from the computer with a progress bar per file', async () => {
      const picked = join(local, 'run-07');
      mkdirSync(join(picked, 'ckpt'), { recursive: true });
      writeFileSync(join(picked, 'config.yaml'), 'lr: 0.001\n');
      writeFileSync(join(picked, 'ckpt', 'step-100.pt'), Buffer.alloc(12 * 1024 * 1024, 7));
      await page.goto(`${baseUrl}/files/user`, { waitUntil: 'domcontentloaded' });
      await page.getByTestId('upload-folder').waitFor({ state: 'visible' });
      await page.locator('input[webkitdirectory]').setInputFiles(picked);
      const items = page.getByTestId('upload-item');
      await waitFor(
        async () => (await items.count()) === 2,
        () => 'the panel does not show the two files',
      );
      const bars = await items.evaluateAll((all) => all.map((i) => i.querySelectorAll('[role="progressbar"]').length));
      check(
        bars.every((n) => n === 1),
        `progress bars per file: ${bars.join(', ')}`,
      );
      await waitFor(
        async () => {
          const states = await items.evaluateAll((all) => all.map((i) => i.getAttribute('data-status')));
          if (states.includes('failed')) throw new Error(`an upload failed: ${await page.getByTestId('upload-panel').innerText()}`);
          return states.every((s) => s === 'done');
        },
        () => 'the uploads did not finish',
        60_000,
      );
      const bar = page.getByRole('progressbar', { name: /step-100\.pt$/ });
      const full = await bar.evaluate((b) => b.getAttribute('aria-valuenow') === b.getAttribute('aria-valuemax'));
      check(full, "the finished checkpoint's bar is not full");
      await page.locator('[data-testid="file-row"][data-name="run-07"]').getByRole('link', { name: 'run-07/' }).click();
      await page.locator('[data-testid="file-row"][data-name="ckpt"]').waitFor({ state: 'visible' });
      const onDisk = statSync(join(home, 'spaces', 'users', who.username, 'run-07', 'ckpt', 'step-100.pt')).size;
      check(onDisk === 12 * 1024 * 1024, `the uploaded checkpoint is ${onDisk} bytes on the server`);
      await screenshot(page, shot);
    });
    return 0;
  } catch (e) {
    await reportFailure(e, page, shot);
    return 1;
  } finally {
    await browser.close();
    rmSync(local, { recursive: true, force: true });
  }
}

runMain(main);
