// Browser test of the first hour on a fresh server, with one browser context per person:
//   admin (signed in with the generated password):
//     1. the overview's checklist shows 0 of 4 steps done; following "Change it" changes the password and ticks it;
//     2. following "Go to accounts", the admin creates the account first-lab and gives it accelerators only
//        (2 × nvidia-a100-80gb): the quota editor warns that no job could start without CPU and memory and proposes
//        the fleet's per-GPU ratio; "Use these amounts" fills CPU and memory; saved, the step ticks;
//     3. the admin creates the user ada.new on /admin/users and, following "Add members", makes them a member of
//        first-lab; the step ticks;
//   user ada.new:
//     4. signs in, selects first-lab, starts a notebook from the "JupyterLab + PyTorch" template on one A100 with
//        the template's CPU and memory; it runs and Open shows JupyterLab on the job's own origin;
//     5. opens the job's terminal: the prompt, `nvidia-smi` naming the A100, `ls ~` listing what was made there;
//     6. submits a 2-GPU job that cannot start (1 of 2 A100 in use): its panel gives the reason with its numbers in
//        English, then, after switching the console to 简体中文, in Chinese with the same numbers;
//   admin:
//     7. with a job submitted, every step is done and the checklist is gone from the overview.
//
// Environment: CRATER_URL, CRATER_USER, CRATER_PASSWORD (the initial platform admin), SCREENSHOT (the final
// screenshot; the main steps' screenshots are written next to it), CHROMIUM.
// Exits 0 when every check passes, 1 otherwise.

import {
  STEP_TIMEOUT_MS,
  env,
  log,
  CheckFailed,
  check,
  step,
  waitFor,
  formErrorText,
  launchBrowser,
  signIn,
  reportFailure,
  runMain,
  screenshot as shoot,
  createUserInConsole,
  submitAccountInConsole,
} from './lib.mjs';

const ACCOUNT = { slug: 'first-lab', name: 'First Lab' };
const MODEL = 'nvidia-a100-80gb';
const MODEL_NAME = 'NVIDIA A100 80GB';
const USER = { username: 'ada.new', displayName: 'Ada New', password: 'Ada-pass-123456' };
/** A job reaches Running within this (admission, image pull); an app then gets ready. */
const JOB_TIMEOUT_MS = 90_000;

async function main() {
  const baseUrl = env('CRATER_URL').replace(/\/+$/, '');
  const admin = { username: env('CRATER_USER'), password: env('CRATER_PASSWORD') };
  const newPassword = `${admin.password}-Own1`;
  const finalShot = process.env.SCREENSHOT || '';

  const browser = await launchBrowser();
  let current;

  async function go(page, path) {
    current = page;
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
  }

  /** The checklist as shown: each step's done flag and the progress line. */
  async function checklist(page) {
    const section = page.getByTestId('onboarding');
    await section.waitFor({ state: 'visible' });
    const steps = await section
      .locator('[data-testid="onboarding-step"]')
      .evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-step'), e.getAttribute('data-done') === 'true'])));
    const progress = (await page.getByTestId('onboarding-progress').innerText()).trim();
    return { steps, progress };
  }

  /** Goes to the overview and waits until the checklist shows exactly `done` ticked, in order. */
  async function checklistShows(page, done) {
    await go(page, '/');
    const keys = ['password', 'account', 'people', 'job'];
    let seen = null;
    await waitFor(
      async () => {
        seen = await checklist(page);
        return keys.every((k) => seen.steps[k] === done.includes(k)) && seen.progress === `${done.length} of 4 done`;
      },
      () => `the checklist shows ${JSON.stringify(seen)}, expected done: ${JSON.stringify(done)}`,
    );
    log(`checklist: ${seen.progress} (${done.join(', ') || 'none'})`);
  }

  /** The number in a quota field. */
  const fieldValue = (page, testId) => page.getByTestId(testId).inputValue();

  try {
    const adminPage = await step('the admin signs in with the generated password and sees the checklist', async () => {
      const page = await signIn(browser, baseUrl, admin);
      current = page;
      await checklistShows(page, []);
      check(
        await page.locator('[data-testid="onboarding-step"][data-step="password"]').getByTestId('onboarding-go-password').isVisible(),
        'the first step offers no link',
      );
      await shoot(page, finalShot, 'checklist');
      return page;
    });

    await step('following "Change it", the admin chooses a password; the step ticks', async () => {
      await adminPage.getByTestId('onboarding-go-password').click();
      await adminPage.waitForURL((url) => url.pathname === '/profile');
      await adminPage.getByLabel('Current password').fill(admin.password);
      await adminPage.getByLabel('New password', { exact: true }).fill(newPassword);
      await adminPage.getByLabel('Repeat new password').fill(newPassword);
      await adminPage.getByRole('button', { name: 'Change password' }).click();
      await waitFor(
        async () => {
          if (await adminPage.getByText('Password changed.').isVisible()) return true;
          const err = await formErrorText(adminPage);
          if (err) throw new CheckFailed(`the password change was refused: ${err.text} (${err.code})`);
          return false;
        },
        () => 'the password change was not confirmed',
      );
      await checklistShows(adminPage, ['password']);
    });

    await step(`following "Go to accounts", the admin creates ${ACCOUNT.slug}`, async () => {
      await adminPage.getByTestId('onboarding-go-account').click();
      await adminPage.waitForURL((url) => url.pathname === '/accounts');
      await adminPage.getByTestId('account-create-open').click();
      await adminPage.getByTestId('account-create-name').fill(ACCOUNT.name);
      const slug = await adminPage.getByTestId('account-create-slug').inputValue();
      check(slug === ACCOUNT.slug, `the form proposes the slug ${JSON.stringify(slug)} for ${ACCOUNT.name}`);
      await submitAccountInConsole(adminPage, ACCOUNT.slug);
    });

    const ratio = await step('an accelerator-only quota is warned about; the fleet\u2019s ratio fills CPU and memory', async () => {
      await adminPage.getByTestId('quota-edit-open').click();
      await adminPage.getByTestId('quota-editor').waitFor({ state: 'visible' });
      await adminPage.getByTestId(`quota-guaranteed-${MODEL}`).fill('2');
      await adminPage.getByTestId(`quota-max-${MODEL}`).fill('2');
      const warning = adminPage.getByTestId('quota-companion-warning');
      await warning.waitFor({ state: 'visible' });
      const text = (await warning.innerText()).replace(/\s+/g, ' ').trim();
      check(
        text.startsWith(`${MODEL_NAME} has a quota, but there is none for CPU and `) &&
          /none for CPU and memory/i.test(text) &&
          text.includes('no job could start'),
        `the warning says ${JSON.stringify(text)}`,
      );
      const suggestion = (await adminPage.getByTestId('quota-ratio-suggestion').innerText()).trim();
      const m = /CPU by the fleet's ratio: (\d+) guaranteed, (\d+) max cores; memory: (\d+) guaranteed, (\d+) max GiB/.exec(suggestion);
      check(m !== null, `the suggestion reads ${JSON.stringify(suggestion)}`);
      const [cpuG, cpuM, memG, memM] = m.slice(1).map(Number);
      check(cpuG > 0 && cpuG === cpuM && memG > 0 && memG === memM, `the suggestion for 2 guaranteed and 2 max is ${suggestion}`);
      check(
        (await fieldValue(adminPage, 'quota-max-cpu')) === '0' && (await fieldValue(adminPage, 'quota-max-memory')) === '0',
        'CPU and memory were not empty before applying the ratio',
      );
      log(`warning: ${text}`);
      await shoot(adminPage, finalShot, 'quota-warning');
      await adminPage.getByTestId('quota-apply-ratio').click();
      const filled = {
        cpuG: await fieldValue(adminPage, 'quota-guaranteed-cpu'),
        cpuM: await fieldValue(adminPage, 'quota-max-cpu'),
        memG: await fieldValue(adminPage, 'quota-guaranteed-memory'),
        memM: await fieldValue(adminPage, 'quota-max-memory'),
      };
      check(
        Number(filled.cpuG) === cpuG &&
          Number(filled.cpuM) === cpuM &&
          parseFloat(filled.memG) === memG &&
          parseFloat(filled.memM) === memM,
        `applying ${suggestion} filled ${JSON.stringify(filled)}`,
      );
      await adminPage.getByTestId('quota-companion-warning').waitFor({ state: 'detached' });
      log(`applied: ${JSON.stringify(filled)}`);
      return { cpu: cpuM, memoryGiB: memM };
    });

    await step('the quota is saved with CPU and memory; the account step ticks', async () => {
      await adminPage.getByTestId('quota-save').click();
      await waitFor(
        async () => {
          if (!(await adminPage.getByTestId('quota-editor').isVisible())) return true;
          const err = await formErrorText(adminPage);
          if (err) throw new CheckFailed(`saving the quota failed: ${err.text} (${err.code})`);
          return false;
        },
        () => 'the quota editor stayed open',
      );
      const max = (resource) =>
        adminPage.locator(`[data-testid="quota-row"][data-resource="${resource}"] [data-testid="quota-effective-max"]`).innerText();
      let shown = null;
      await waitFor(
        async () => {
          shown = { [MODEL]: (await max(MODEL)).trim(), cpu: (await max('cpu')).trim(), memory: (await max('memory')).trim() };
          return shown[MODEL] === '2' && parseFloat(shown.cpu) === ratio.cpu && parseFloat(shown.memory) === ratio.memoryGiB;
        },
        () => `the quota table shows max ${JSON.stringify(shown)}, expected 2, ${ratio.cpu} cores, ${ratio.memoryGiB} GiB`,
      );
      check((await adminPage.getByTestId('quota-start-blocker').count()) === 0, 'the account still says no job can start');
      log(`quota max: ${JSON.stringify(shown)}`);
      await checklistShows(adminPage, ['password', 'account']);
    });

    await step(`the admin creates ${USER.username} and, following "Add members", makes them a member`, async () => {
      await go(adminPage, '/admin/users');
      await createUserInConsole(adminPage, USER);
      await adminPage.locator(`[data-testid="user-row"][data-username="${USER.username}"]`).waitFor({ state: 'visible' });
      await go(adminPage, '/');
      await adminPage.getByTestId('onboarding-go-people').click();
      await adminPage.waitForURL((url) => url.pathname === `/accounts/${ACCOUNT.slug}`);
      await adminPage.getByTestId('member-add-username').fill(USER.username);
      await adminPage.getByTestId('member-add-role').selectOption('member');
      await adminPage.getByTestId('member-add-submit').click();
      const row = adminPage.locator(`[data-testid="member-row"][data-username="${USER.username}"]`);
      await row.waitFor({ state: 'visible' });
      const role = await row.getByTestId('member-role').inputValue();
      check(role === 'member', `${USER.username} is shown with the role ${role}`);
      await shoot(adminPage, finalShot, 'members');
      await checklistShows(adminPage, ['password', 'account', 'people']);
    });

    const userPage = await step(`${USER.username} signs in and selects ${ACCOUNT.name}`, async () => {
      const page = await signIn(browser, baseUrl, USER);
      current = page;
      const selector = page.getByTestId('account-selector');
      await waitFor(
        async () => (await selector.locator(`option[value="${ACCOUNT.slug}"]`).count()) > 0,
        () => `${USER.username}'s account selector does not offer ${ACCOUNT.slug}`,
      );
      const option = (await selector.locator(`option[value="${ACCOUNT.slug}"]`).innerText()).trim();
      check(option === ACCOUNT.name, `the selector names the account ${JSON.stringify(option)}`);
      await selector.selectOption(ACCOUNT.slug);
      return page;
    });

    const notebook = await step(
      'a notebook from its template on one A100 in the team account runs',
      async () => {
        await go(userPage, '/templates');
        await userPage.getByTestId('template-use-jupyter-pytorch').click();
        await userPage.getByTestId('template-form').waitFor({ state: 'visible' });
        await userPage.getByTestId('param-model').selectOption(MODEL);
        await userPage.getByTestId('param-accelerators').fill('1');
        const cpu = await userPage.getByTestId('param-cpu').inputValue();
        const memory = await userPage.getByTestId('param-memory').inputValue();
        await userPage.getByTestId('job-submit').click();
        const id = await waitFor(
          async () => {
            const m = /^\/jobs\/([^/]+)$/.exec(new URL(userPage.url()).pathname);
            if (m && m[1] !== 'new') return decodeURIComponent(m[1]);
            const err = await formErrorText(userPage);
            if (err) throw new CheckFailed(`the notebook was refused: ${err.text} (${err.code})`);
            return null;
          },
          () => 'submitting the notebook did not lead to its page',
        );
        await userPage.locator(`[data-testid="job-detail"][data-id="${id}"]`).waitFor({ state: 'visible' });
        check((await userPage.getByTestId('job-account').innerText()).trim() === ACCOUNT.slug, 'the notebook is not in the team account');
        check((await userPage.getByTestId('job-template').innerText()).includes('JupyterLab'), 'the job does not name its template');
        let state = null;
        await waitFor(
          async () => {
            state = await userPage
              .getByTestId('job-state')
              .getAttribute('data-state', { timeout: 1000 })
              .catch(() => null);
            return state === 'Running';
          },
          () => `the notebook ${id} is ${state}, expected Running`,
          JOB_TIMEOUT_MS,
        );
        log(`notebook ${id} (template defaults: ${cpu} CPU, ${memory}) runs in ${ACCOUNT.slug}`);
        return id;
      },
      JOB_TIMEOUT_MS + STEP_TIMEOUT_MS,
    );

    await step(
      'Open shows JupyterLab on the job\u2019s own origin',
      async () => {
        const host = `${notebook}.apps.localhost`;
        // Open is refused (AppNotReady) until the app answers its readiness path; a person clicks again.
        const app = await waitFor(
          async () => {
            const popup = userPage
              .context()
              .waitForEvent('page', { timeout: 5000 })
              .catch(() => null);
            await userPage.getByTestId('job-open-app').click();
            const tab = await popup;
            if (tab === null) return null;
            const reached = await tab
              .waitForURL((url) => url.hostname === host, { timeout: 10_000 })
              .then(
                () => true,
                () => false,
              );
            if (reached) return tab;
            await tab.close().catch(() => undefined);
            await new Promise((r) => setTimeout(r, 2000));
            return null;
          },
          () => `Open never reached ${host}: ${JSON.stringify(current?.url())}`,
          JOB_TIMEOUT_MS,
        );
        await app.locator('h1').waitFor({ state: 'visible' });
        const heading = (await app.locator('h1').innerText()).trim();
        const url = new URL(app.url());
        check(heading.includes('JupyterLab'), `the app origin shows ${JSON.stringify(heading)}`);
        check(url.origin !== new URL(baseUrl).origin, 'the app is served on the console\u2019s origin');
        await shoot(app, finalShot, 'notebook-app');
        log(`Open: ${url.origin}${url.pathname} shows ${heading}`);
        await app.close();
      },
      JOB_TIMEOUT_MS + STEP_TIMEOUT_MS,
    );

    await step('the terminal shows the prompt, nvidia-smi names the A100, ls ~ lists the home', async () => {
      const rows = async () =>
        (await userPage.locator('[data-testid="job-terminal-screen"] .xterm-rows > div').allInnerTexts()).map((r) =>
          r.replace(/\u00a0/g, ' ').trimEnd(),
        );
      const shown = async (predicate, what) => {
        let last = [];
        return waitFor(
          async () => {
            last = await rows();
            return predicate(last) ? last : null;
          },
          () => `the terminal does not show ${what}: ${JSON.stringify(last.filter((r) => r !== ''))}`,
        );
      };
      const type = async (line) => {
        await userPage.getByTestId('job-terminal-screen').click();
        await userPage.keyboard.type(line);
        await userPage.keyboard.press('Enter');
      };
      await userPage.getByTestId('job-terminal-open').click();
      await userPage.locator('[data-testid="job-terminal-status"][data-status="connected"]').waitFor({ state: 'visible' });
      const prompt = new RegExp(`^\\S+@c-${notebook}-main-0:~\\$$`);
      await shown((r) => r.some((x) => prompt.test(x.trim())), `the prompt <user>@c-${notebook}-main-0:~$`);
      await type('nvidia-smi');
      const smi = await shown(
        (r) =>
          r.some((x) => /NVIDIA-SMI/.test(x)) &&
          r.some((x) => /NVIDIA A100/.test(x)) &&
          r.some((x) => /No running processes found/.test(x)),
        'the nvidia-smi table naming the A100',
      );
      const cards = smi.filter((x) => /^\|\s+\d+\s+NVIDIA A100/.test(x));
      check(cards.length === 1, `nvidia-smi lists ${cards.length} A100 rows, expected the job's one: ${JSON.stringify(cards)}`);
      log(`nvidia-smi: ${cards[0].trim()}`);
      await shoot(userPage, finalShot, 'terminal');
      await type('clear');
      await type('mkdir ~/experiments && touch ~/notes.txt');
      await type('ls ~');
      // The line after the command is its output, and the prompt comes back after it.
      const listing = (r) => {
        const at = r.findIndex((x) => /:~\$ ls ~$/.test(x));
        return at >= 0 && at + 2 < r.length && prompt.test(r[at + 2].trim()) ? r[at + 1].trim() : null;
      };
      const ls = listing(await shown((r) => listing(r) !== null, 'the output of `ls ~` followed by the prompt'));
      check(
        ls.split(/\s+/).sort().join(' ') === 'experiments notes.txt',
        `ls ~ lists ${JSON.stringify(ls)}, expected experiments and notes.txt`,
      );
      log(`ls ~: ${ls}`);
    });

    const reasonEn = await step('a 2-GPU job cannot start: its panel says why, with the numbers', async () => {
      await go(userPage, '/jobs/new');
      await userPage.getByTestId('job-form').waitFor({ state: 'visible' });
      await userPage.getByTestId('job-kind').selectOption('custom');
      await userPage.getByTestId('job-name').fill('train');
      await userPage.getByTestId('job-image').fill('python:3.12');
      await userPage.getByTestId('job-command').fill('python train.py');
      await userPage.getByTestId('job-cpu').fill('2');
      await userPage.getByTestId('job-memory').fill('8Gi');
      await userPage.getByTestId('job-accelerator-model').selectOption(MODEL);
      await userPage.getByTestId('job-accelerators').fill('2');
      await userPage.getByTestId('job-submit').click();
      await waitFor(
        async () => {
          const m = /^\/jobs\/([^/]+)$/.exec(new URL(userPage.url()).pathname);
          if (m && m[1] !== 'new') return true;
          const err = await formErrorText(userPage);
          if (err) throw new CheckFailed(`the job was refused: ${err.text} (${err.code})`);
          return false;
        },
        () => 'submitting the job did not lead to its page',
      );
      await userPage.getByTestId('job-waiting').waitFor({ state: 'visible' });
      const reason = userPage.locator('[data-testid="job-waiting"] [data-testid="job-reason"][data-code="AccountQuotaExceeded"]');
      await reason.waitFor({ state: 'visible' });
      const text = (await reason.innerText()).trim();
      const expected = `The account would use 3 of ${MODEL_NAME}; its max is 2 (1 in use, you ask for 2)`;
      check(text === expected, `the reason reads ${JSON.stringify(text)}, expected ${JSON.stringify(expected)}`);
      log(`reason (en): ${text}`);
      await shoot(userPage, finalShot, 'waiting-en');
      return text;
    });

    await step('in 简体中文 the panel gives the same reason with the same numbers', async () => {
      await userPage.getByTestId('language-select').selectOption({ label: '简体中文' });
      const reason = userPage.locator('[data-testid="job-waiting"] [data-testid="job-reason"][data-code="AccountQuotaExceeded"]');
      const text = await waitFor(
        async () => {
          const t = (await reason.innerText()).trim();
          return /[\u4e00-\u9fff]/.test(t) ? t : null;
        },
        () => 'the reason did not change to Chinese',
      );
      const expected = `账户的 ${MODEL_NAME} 用量将达到 3；其上限为 2（已用 1，本次请求 2）`;
      check(text === expected, `the reason reads ${JSON.stringify(text)}, expected ${JSON.stringify(expected)}`);
      const numbers = (s) => s.replace(MODEL_NAME, '').match(/\d+/g);
      check(
        JSON.stringify(numbers(text)) === JSON.stringify(numbers(reasonEn)),
        `the numbers differ: ${numbers(reasonEn)} in English, ${numbers(text)} in Chinese`,
      );
      log(`reason (zh-CN): ${text}`);
      await shoot(userPage, finalShot);
    });

    await step('with a job submitted, every first step is done and the checklist is gone', async () => {
      current = adminPage;
      const answer = adminPage.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/onboarding');
      await adminPage.goto(`${baseUrl}/`, { waitUntil: 'domcontentloaded' });
      const body = await (await answer).json();
      check(body.complete === true, `the server's checklist is ${JSON.stringify(body)}`);
      await adminPage.locator('[data-testid="accelerator-card"]').first().waitFor({ state: 'visible' });
      check((await adminPage.getByTestId('onboarding').count()) === 0, 'the overview still shows the checklist');
    });

    log('all checks passed');
    return 0;
  } catch (e) {
    await reportFailure(e, current, finalShot);
    return 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

runMain(main);
