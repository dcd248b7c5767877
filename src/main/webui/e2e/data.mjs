// Browser test of data next to the GPUs, as one user (data.reader, in their personal account):
//   1. files are written into the user's space through the file API (a dataset folder /datasets/mnist of three files,
//      3 KiB, and a log folder /runs/exp1 with two TensorBoard runs); the Data page is empty, the user registers
//      /datasets/mnist as the dataset "mnist" in its form and sees it listed with its place, size and entries;
//   2. the new-job form's mount picker adds the dataset, the user moves it to /mnt/mnist, submits a job working in
//      /crater/user/runs/exp1; it runs; its page shows the mount (read-only); in its terminal `ls -1 /mnt/mnist`
//      lists the dataset's files and writing there is refused (read-only file system);
//   3. the TensorBoard page is empty; "Open in TensorBoard" on the job's page makes a panel over the job's working
//      directory (run prefix exp1); it runs, Open shows it in a new tab on the panel job's own origin with the runs
//      exp1/run_a and exp1/run_b; a third run written meanwhile is listed at the next reload of /data/runs;
//   4. the Data page's Downloads tab and the Images page's Builds tab show their empty states, in English and, after
//      switching the language, in Chinese, with no console or page errors.
//
// Environment: CRATER_URL, CRATER_USER, CRATER_PASSWORD (a platform admin), SCREENSHOT (optional), CHROMIUM.
// Exits 0 when every check passes, 1 otherwise.

import { readFileSync } from 'node:fs';
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
  signIn,
  submitJob,
  waitForJobState,
  terminalRows,
  screenshot as shoot,
} from './lib.mjs';

const USER = { username: 'data.reader', displayName: 'Data Reader', password: 'Reader-pass-12345' };
const DATASET = 'mnist';
/** The dataset's files and their sizes: 3,072 bytes in all, which the Data page shows as 3 KiB. */
const DATASET_FILES = { 'train.csv': 2048, 'test.csv': 1000, 'README.md': 24 };
const MOUNT_PATH = '/mnt/mnist';
const RUNS = ['run_a', 'run_b'];
const PREFIX = 'exp1';

const i18n = (lang) => JSON.parse(readFileSync(new URL(`../src/i18n/${lang}.json`, import.meta.url), 'utf8'));
const TEXT = { en: i18n('en'), 'zh-CN': i18n('zh-CN') };

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const admin = { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') };
  const screenshot = process.env.SCREENSHOT || '';
  const api = apiClient(baseUrl);

  /** Writes `body` as the file `path` of the caller's own space (its folder must exist). */
  async function putFile(token, path, body) {
    const res = await fetch(`${baseUrl}/api/v1/files/user${path}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}` },
      body,
    });
    check(res.status === 201, `PUT ${path}: ${res.status} ${await res.text()}`);
  }

  async function mkdirs(token, ...paths) {
    for (const path of paths) await api(token, 'POST', `/files/user${path}`, { action: 'mkdir' }, [201]);
  }

  /** Errors a page printed or threw, kept per page so a step can ask for none. */
  const errorsOf = new Map();
  function recordErrors(p) {
    const seen = [];
    errorsOf.set(p, seen);
    p.on('console', (msg) => {
      if (msg.type() === 'error') seen.push(`console: ${msg.text()}`);
    });
    p.on('pageerror', (err) => seen.push(`page: ${err.message}`));
  }

  const browser = await launchBrowser();
  let page;
  try {
    const { token, slug } = await step('the admin creates data.reader, whose files are written through the API', async () => {
      const adminToken = await apiLogin(api, admin);
      await apiCreateUser(api, adminToken, USER);
      const userToken = await apiLogin(api, USER);
      const me = await api(userToken, 'GET', '/me');
      await mkdirs(userToken, '/datasets', `/datasets/${DATASET}`, '/runs', `/runs/${PREFIX}`);
      for (const [name, size] of Object.entries(DATASET_FILES)) {
        await putFile(userToken, `/datasets/${DATASET}/${name}`, 'x'.repeat(size));
      }
      for (const run of RUNS) {
        await mkdirs(userToken, `/runs/${PREFIX}/${run}`);
        await putFile(userToken, `/runs/${PREFIX}/${run}/events.out.tfevents.1700000000.${run}`, `events of ${run}`);
      }
      return { token: userToken, slug: me.slug };
    });

    page = await step('data.reader signs in; the Data page has no dataset yet', async () => {
      const p = await signIn(browser, baseUrl, USER);
      recordErrors(p);
      await p.goto(`${baseUrl}/data`, { waitUntil: 'domcontentloaded' });
      const empty = p.getByTestId('empty-state');
      await empty.waitFor({ state: 'visible' });
      const text = await empty.innerText();
      check(text.includes(TEXT.en.assets.empty.dataset), `the Data page's empty state says ${JSON.stringify(text)}`);
      return p;
    });

    await step(`data.reader registers /datasets/${DATASET} as the dataset "${DATASET}" and sees it listed`, async () => {
      await page.getByTestId('assets-register').click();
      await page.getByTestId('asset-dialog').waitFor({ state: 'visible' });
      await page.getByTestId('asset-kind').selectOption('dataset');
      await page.getByTestId('asset-name').fill(DATASET);
      await page.getByTestId('asset-space').selectOption('user');
      await page.getByTestId('asset-path').fill(`/datasets/${DATASET}`);
      await page.getByTestId('asset-tags').fill('vision');
      await page.getByTestId('asset-save').click();
      await page.getByTestId('asset-dialog').waitFor({ state: 'detached' });
      const row = page.getByTestId(`asset-${DATASET}`);
      await row.waitFor({ state: 'visible' });
      const cells = (await row.locator('td').allInnerTexts()).map((c) => c.trim());
      log(`Data page row: ${JSON.stringify(cells)}`);
      check(cells[1] === `user:${slug}:/datasets/${DATASET}`, `the dataset's place shows ${JSON.stringify(cells[1])}`);
      check(cells[2] === '3 KiB', `the dataset's size shows ${JSON.stringify(cells[2])}, expected 3 KiB`);
      const entries = Object.keys(DATASET_FILES).length + 1; // its folder included
      const title = await row.locator('td').nth(2).getAttribute('title');
      check(title === `${entries} entries`, `the size's title says ${JSON.stringify(title)}, expected ${entries} entries`);
      check(cells[5] === USER.username, `the owner shows ${JSON.stringify(cells[5])}`);
      const listed = await page.locator('[data-testid="assets-table"] tbody tr').count();
      check(listed === 1, `the Data page lists ${listed} datasets, expected 1`);
    });

    const jobId = await step(
      `the dataset is mounted at ${MOUNT_PATH} in a new job, which runs`,
      async () => {
        await page.goto(`${baseUrl}/jobs/new`, { waitUntil: 'domcontentloaded' });
        await page.getByTestId('job-form').waitFor({ state: 'visible' });
        await page.getByTestId('job-kind').selectOption('custom');
        await page.getByTestId('job-name').fill('reader');
        await page.getByTestId('job-image').fill('python:3.12');
        await page.getByTestId('job-command').fill('python train.py');
        await page.getByTestId('job-env').fill('SIM_DURATION=30m');
        await page.getByTestId('job-working-dir').fill(`/crater/user/runs/${PREFIX}`);
        await page.getByTestId('job-cpu').fill('1');
        await page.getByTestId('job-memory').fill('1');
        await page.getByTestId('job-accelerator-model').selectOption('');
        const picker = page.getByTestId('mount-pick');
        await waitFor(
          async () => (await picker.isEnabled()) && (await picker.locator('option').count()) === 2,
          () => 'the mount picker does not offer exactly the one dataset',
        );
        const option = picker.locator('option').nth(1);
        const label = (await option.innerText()).trim();
        check(label === `Dataset: ${USER.username}/${DATASET} (3 KiB)`, `the picker offers ${JSON.stringify(label)}`);
        await picker.selectOption(await option.getAttribute('value'));
        await page.getByTestId('mount-add').click();
        const mounts = page.getByTestId('job-mounts');
        const added = await mounts.inputValue();
        check(added === `dataset ${DATASET} /data/${DATASET}`, `the picker wrote ${JSON.stringify(added)}`);
        await mounts.fill(added.replace(`/data/${DATASET}`, MOUNT_PATH));
        const id = await submitJob(page);
        await waitForJobState(page, ['Running']);
        const view = (await page.getByTestId('job-mounts-view').innerText()).replace(/\s+/g, ' ').trim();
        log(`the job's mounts: ${view}`);
        check(view.includes(TEXT.en.assets.mounts.shown), `the job's page does not say the mounts are read-only: ${view}`);
        check(view.includes(`${MOUNT_PATH} ← Dataset ${USER.username}/${DATASET}`), `the job's page shows the mount as ${view}`);
        return id;
      },
      STEP_TIMEOUT_MS * 4,
    );

    await step(`in the job's terminal, ls -1 ${MOUNT_PATH} lists the dataset's files, and writing there is refused`, async () => {
      await page.getByTestId('job-terminal-open').click();
      await page.locator('[data-testid="job-terminal-status"][data-status="connected"]').waitFor({ state: 'visible' });
      let rows = [];
      const shown = () => JSON.stringify(rows.filter((r) => r !== ''));
      await waitFor(
        async () => {
          rows = await terminalRows(page);
          return rows.some((r) => new RegExp(`^\\S+@c-${jobId}-main-0:~/runs/${PREFIX}\\$$`).test(r.trim()));
        },
        () => `no prompt in the job's working directory: ${shown()}`,
      );
      await page.getByTestId('job-terminal-screen').click();
      await page.keyboard.type(`ls -1 ${MOUNT_PATH}`);
      await page.keyboard.press('Enter');
      const names = Object.keys(DATASET_FILES).sort();
      await waitFor(
        async () => {
          rows = await terminalRows(page);
          const at = rows.findIndex((r) => r.endsWith(`$ ls -1 ${MOUNT_PATH}`));
          return at >= 0 && names.every((n, i) => rows[at + 1 + i] === n);
        },
        () => `the terminal does not list ${names.join(', ')} under the command: ${shown()}`,
      );
      await page.keyboard.type(`touch ${MOUNT_PATH}/new.txt`);
      await page.keyboard.press('Enter');
      await waitFor(
        async () => {
          rows = await terminalRows(page);
          return rows.some((r) => r.includes(`${MOUNT_PATH}/new.txt`) && r.endsWith('Read-only file system'));
        },
        () => `writing into the dataset was not refused as read-only: ${shown()}`,
      );
      log(`terminal: ${shown()}`);
      await shoot(page, screenshot, 'terminal');
    });

    const panel = await step(
      'the TensorBoard page is empty; Open in TensorBoard on the job makes a panel, which runs',
      async () => {
        await page.goto(`${baseUrl}/tensorboards`, { waitUntil: 'domcontentloaded' });
        const empty = page.getByTestId('empty-state');
        await empty.waitFor({ state: 'visible' });
        check((await empty.innerText()).includes(TEXT.en.tensorboards.empty), 'the TensorBoard page has no empty state');
        await page.goto(`${baseUrl}/jobs/${jobId}`, { waitUntil: 'domcontentloaded' });
        await page.getByTestId('job-open-tensorboard').click();
        const dialog = page.getByTestId('tensorboard-dialog');
        await dialog.waitFor({ state: 'visible' });
        const name = await page.getByTestId('tensorboard-name').inputValue();
        check(name === `tb-${jobId}`, `the panel's name is offered as ${JSON.stringify(name)}`);
        const line = page.getByTestId('tensorboard-source-0');
        const job = await line.getByLabel(TEXT.en.tensorboards.form.jobId, { exact: true }).inputValue();
        check(job === jobId, `the first log folder is the job ${JSON.stringify(job)}, expected ${jobId}`);
        await line.getByLabel(TEXT.en.tensorboards.form.prefix, { exact: true }).fill(PREFIX);
        await page.getByTestId('tensorboard-save').click();
        await dialog.waitFor({ state: 'detached' });
        const row = page.locator('[data-testid^="tensorboard-tb_"]');
        await row.waitFor({ state: 'visible' });
        const id = (await row.getAttribute('data-testid')).slice('tensorboard-'.length);
        const sources = (await row.locator('td').nth(2).innerText()).trim();
        check(sources.includes(PREFIX) && sources.includes(jobId), `the panel's log folders show ${JSON.stringify(sources)}`);
        let state = '';
        await waitFor(
          async () => {
            state = (await row.locator('td').nth(1).innerText()).trim();
            return row.getByTestId('tensorboard-open').isVisible();
          },
          () => `the panel never offered Open; its state shows ${JSON.stringify(state)}`,
          STEP_TIMEOUT_MS * 2,
        );
        check(state.startsWith(TEXT.en.tensorboards.state.Running), `the panel's state shows ${JSON.stringify(state)}`);
        const serverJob = (await row.locator('a[href^="/jobs/"]').innerText()).trim();
        // Open works once TensorBoard answers its readiness path (409 AppNotReady before).
        await waitFor(
          async () =>
            api(token, 'POST', `/tensorboards/${id}/open`, undefined, [200]).then(
              () => true,
              () => false,
            ),
          () => `the panel ${id} never answered its readiness path`,
          STEP_TIMEOUT_MS * 2,
        );
        return { id, row, serverJob };
      },
      STEP_TIMEOUT_MS * 6,
    );

    await step('Open shows the panel in a new tab on its own origin, with the runs of the job\u2019s folder', async () => {
      const [app] = await Promise.all([page.context().waitForEvent('page'), panel.row.getByTestId('tensorboard-open').click()]);
      watchAppTab(app);
      await app.waitForURL((url) => url.hostname === `${panel.serverJob}.apps.localhost`, { timeout: 20_000 });
      await app.locator('h1').waitFor({ state: 'visible' });
      const heading = (await app.locator('h1').innerText()).trim();
      check(heading === 'Simulated TensorBoard', `the panel's tab shows ${JSON.stringify(heading)}`);
      const expected = RUNS.map((r) => `${PREFIX}/${r}`);
      const body = await app.locator('body').innerText();
      check(body.includes(`Runs: ${expected.join(', ')}`), `the panel's page does not list the runs ${expected.join(', ')}: ${body}`);
      const url = new URL(app.url());
      check(url.origin !== new URL(baseUrl).origin, 'the panel is served on the console\u2019s origin');
      await shoot(app, screenshot, 'tensorboard');

      // TensorBoard reloads its folders: a run written now is listed at the next request.
      await mkdirs(token, `/runs/${PREFIX}/run_c`);
      await putFile(token, `/runs/${PREFIX}/run_c/events.out.tfevents.1700000100.run_c`, 'events of run_c');
      const res = await app.goto(`${url.origin}/data/runs`, { waitUntil: 'domcontentloaded' });
      check(res.status() === 200, `/data/runs on the panel's origin answered ${res.status()}`);
      const runs = JSON.parse(await res.text());
      const wanted = [...expected, `${PREFIX}/run_c`];
      check(
        JSON.stringify(runs) === JSON.stringify(wanted),
        `/data/runs lists ${JSON.stringify(runs)}, expected ${JSON.stringify(wanted)}`,
      );
      log(`panel ${panel.id} on ${url.origin}: runs ${runs.join(', ')}`);
      await app.close();
    });

    await step('the Downloads and Builds tabs show their empty states in English and Chinese, without errors', async () => {
      const errors = errorsOf.get(page);
      errors.length = 0;
      for (const lang of ['en', 'zh-CN']) {
        if (lang !== 'en') {
          await page.getByTestId('language-select').selectOption({ label: '简体中文' });
          await waitFor(
            async () => (await page.evaluate(() => document.documentElement.lang)) === lang,
            () => `the document language did not become ${lang}`,
          );
        }
        const text = TEXT[lang];
        await page.goto(`${baseUrl}/data`, { waitUntil: 'domcontentloaded' });
        await page.getByTestId('assets-tab-downloads').click();
        await page.getByTestId('download-form').waitFor({ state: 'visible' });
        await expectEmpty(page, text.downloads.empty, text.downloads.emptyHint, `the Downloads tab (${lang})`);
        check((await page.getByTestId('assets-search').count()) === 0, `the Downloads tab (${lang}) shows the catalogue's search`);
        await shoot(page, screenshot, `downloads-${lang}`);
        await page.goto(`${baseUrl}/images`, { waitUntil: 'domcontentloaded' });
        await page.getByTestId('images-tab-builds').click();
        await expectEmpty(page, text.imageBuilds.empty, text.imageBuilds.emptyHint, `the Builds tab (${lang})`);
        await shoot(page, screenshot, `builds-${lang}`);
      }
      check(errors.length === 0, `the pages printed errors:\n  ${errors.join('\n  ')}`);
      await shoot(page, screenshot);
    });

    log('all checks passed');
    return 0;
  } catch (e) {
    await reportFailure(e, page, screenshot);
    return 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/** The app's tab: its errors are logged (it is the simulated app, not the console). */
function watchAppTab(app) {
  app.setDefaultTimeout(STEP_TIMEOUT_MS);
  app.on('pageerror', (err) => log(`[app] page error: ${err.message}`));
}

/** The page's one empty state shows `title` and `hint`. */
async function expectEmpty(page, title, hint, where) {
  const empty = page.getByTestId('empty-state');
  let text = '';
  await waitFor(
    async () => {
      text = ((await empty.innerText({ timeout: 1000 }).catch(() => '')) ?? '').trim();
      return text.includes(title) && text.includes(hint);
    },
    () => `${where} shows ${JSON.stringify(text)}, expected "${title}" and "${hint}"`,
  );
  check((await page.getByTestId('error-state').count()) === 0, `${where} shows an error state`);
  log(`${where}: ${title}`);
}

runMain(main);
