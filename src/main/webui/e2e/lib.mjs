// What every browser test of the console shares: environment, logging, bounded steps, polling, a headless
// Chromium, page watchers that fail the run on any 5xx, and the failure report with a screenshot.

import { chromium } from 'playwright-core';

export const STEP_TIMEOUT_MS = 30_000;

/** Any 5xx answer seen by a watched page fails the run, even when every visible check passed. */
const serverErrors = [];

export function env(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') {
    if (fallback !== undefined) return fallback;
    throw new Error(`environment variable ${name} is not set`);
  }
  return value;
}

const startedAt = Date.now();

/** Logs with the seconds since the script started, so a slow step shows in the log. */
export function log(message) {
  console.log(`[e2e +${((Date.now() - startedAt) / 1000).toFixed(1)}s] ${message}`);
}

export class CheckFailed extends Error {}

export function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/** Runs one named step, bounded in time, so a failure says where it happened. */
export async function step(name, fn, timeoutMs = STEP_TIMEOUT_MS * 2) {
  log(`step: ${name}`);
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000}s`)), timeoutMs);
  });
  try {
    return await Promise.race([fn(), timeout]);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new Error(`step "${name}" failed: ${reason}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor(probe, describeFailure, timeoutMs = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await probe();
    if (last !== null && last !== undefined && last !== false) return last;
    if (Date.now() > deadline) throw new CheckFailed(describeFailure());
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The text and code of a form's problem message, or null when none shows. */
export async function formErrorText(page) {
  const error = page.getByTestId('form-error').first();
  if (!(await error.isVisible().catch(() => false))) return null;
  return { text: (await error.innerText()).trim(), code: await error.getAttribute('data-code') };
}

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser() {
  return chromium.launch({
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
}

/** Logs a page's errors and records every 5xx it sees. */
export function watchPage(page, label) {
  const prefix = label ? `[${label}] ` : '';
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on('pageerror', (err) => log(`${prefix}page error: ${err.message}`));
  page.on('response', (response) => {
    if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') log(`${prefix}console error: ${msg.text()}`);
  });
}

/**
 * Opens a fresh browser context (own cookies and local storage) for one person, signs in on the login page as a
 * person does and waits for the console's header. Returns the page.
 */
export async function signIn(browser, baseUrl, who, { locale = 'en-US', viewport = { width: 1400, height: 1000 } } = {}) {
  const context = await browser.newContext({ locale, viewport });
  const page = await context.newPage();
  watchPage(page, who.username);
  await page.goto(`${baseUrl}/login`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('login-username').fill(who.username);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.getByTestId('user-name').waitFor({ state: 'visible' });
  log(`${who.username} signed in`);
  return page;
}

/**
 * Writes a full-page screenshot next to the final one (SCREENSHOT): `console-x.png` with name `quota` gives
 * `console-x-quota.png`; no name gives the final path itself. Does nothing when no screenshot was asked for.
 */
export async function screenshot(page, finalPath, name) {
  if (!finalPath) return;
  const path = name ? finalPath.replace(/(\.png)?$/, `-${name}.png`) : finalPath;
  await page.screenshot({ path, fullPage: true });
  log(`screenshot written to ${path}`);
}

/** Says what failed and where, with a screenshot of the page when one was asked for. */
export async function reportFailure(error, page, screenshot) {
  console.error(`[e2e] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  if (!page) return;
  try {
    console.error(`[e2e] page URL at failure: ${page.url()}`);
  } catch {
    // the page is gone
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

/** Runs a test's main and exits 0 only when it passed and no page saw a server error. */
export function runMain(main) {
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
}

/** Clicks Submit on a job form and waits for the job's page; returns the job id. */
export async function submitJob(page) {
  await page.getByTestId('job-submit').click();
  const id = await waitFor(
    async () => {
      const m = /^\/jobs\/([^/]+)$/.exec(new URL(page.url()).pathname);
      if (m && m[1] !== 'new') return decodeURIComponent(m[1]);
      const err = await formErrorText(page);
      if (err) throw new CheckFailed(`the job was refused: ${err.text} (${err.code})`);
      return null;
    },
    () => 'submitting did not lead to the job page',
  );
  await page.locator(`[data-testid="job-detail"][data-id="${id}"]`).waitFor({ state: 'visible' });
  log(`submitted job ${id}`);
  return id;
}

/** Waits until the job page's state shows one of `wanted`; returns the state seen. */
export async function waitForJobState(page, wanted, timeoutMs = 60_000) {
  let last = null;
  return waitFor(
    async () => {
      const text = await page
        .getByTestId('job-state')
        .textContent({ timeout: 1000 })
        .catch(() => null);
      last = text === null ? null : text.trim();
      return wanted.includes(last) ? last : null;
    },
    () => `job-state is ${JSON.stringify(last)}, expected ${wanted.join(' or ')} within ${timeoutMs / 1000}s`,
    timeoutMs,
  );
}

/** A job page's terminal rows as text (xterm's DOM renderer draws one element per row). */
export async function terminalRows(page) {
  const rows = await page.locator('[data-testid="job-terminal-screen"] .xterm-rows > div').allInnerTexts();
  return rows.map((r) => r.replace(/\u00a0/g, ' ').trimEnd());
}

/**
 * Crater's API for a test's setup, at `/api/v1` of `baseUrl`: `api(token, method, path, body, expected, account)`
 * sends a JSON body with a bearer token (none when null) and the current account (X-Crater-Account) when given,
 * fails the check on a status not in `expected` and returns the parsed body (null when empty).
 */
export function apiClient(baseUrl) {
  return async function api(token, method, path, body, expected = [200, 201, 204], account) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (account) headers['X-Crater-Account'] = account;
    const res = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    check(expected.includes(res.status), `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Signs in through the API; returns the access token. */
export async function apiLogin(api, who) {
  return (await api(null, 'POST', '/auth/login', { username: who.username, password: who.password })).accessToken;
}

/** Creates a user through the API; one that exists already (409) is taken as it is unless `expected` says otherwise. */
export function apiCreateUser(api, token, user, expected = [201, 409]) {
  return api(token, 'POST', '/users', user, expected);
}

/** Creates an account through the API; one that exists already (409) is taken as it is unless `expected` says otherwise. */
export function apiCreateAccount(api, token, account, expected = [201, 409]) {
  return api(token, 'POST', '/accounts', account, expected);
}

/** Sets an account's quota lines ({ resource, guaranteed, max }) and makes `username` one of its members with `role`. */
export async function apiSetUpAccount(api, token, slug, { quota, members = {} }) {
  await api(token, 'PUT', `/accounts/${slug}/quota`, { items: quota });
  for (const [username, role] of Object.entries(members)) {
    await api(token, 'PUT', `/accounts/${slug}/members/${username}`, { role });
  }
}

/**
 * Creates `who` ({ username, displayName, password }) in the console's dialog on /admin/users, as an admin does.
 * Returns 'created'; with `existingIsFine`, a user that exists already is 'existing' (the dialog is closed); any
 * other refusal fails the check.
 */
export async function createUserInConsole(page, who, { existingIsFine = false } = {}) {
  await page.getByTestId('user-create-open').click();
  await page.getByTestId('user-create-username').fill(who.username);
  await page.getByTestId('user-create-displayname').fill(who.displayName);
  await page.getByTestId('user-create-password').fill(who.password);
  await page.getByTestId('user-create-submit').click();
  const outcome = await waitFor(
    async () => {
      if (!(await page.getByTestId('user-create-dialog').isVisible())) return 'created';
      const err = await formErrorText(page);
      return err ? err : null;
    },
    () => `creating ${who.username} neither succeeded nor failed`,
  );
  if (outcome === 'created') {
    log(`created ${who.username}`);
    return 'created';
  }
  check(
    existingIsFine && (outcome.code === 'UserExists' || /exist/i.test(outcome.text)),
    `creating ${who.username} failed: ${outcome.text} (${outcome.code})`,
  );
  log(`${who.username} already exists; continuing`);
  await page.keyboard.press('Escape');
  return 'existing';
}

/**
 * Sends the console's create-account dialog (its fields filled by the caller) and waits for the account's page.
 * With `existingIsFine`, an account that exists already is opened instead; any other refusal fails the check.
 */
export async function submitAccountInConsole(page, slug, { existingIsFine = false } = {}) {
  await page.getByTestId('account-create-submit').click();
  const outcome = await waitFor(
    async () => {
      if (new URL(page.url()).pathname === `/accounts/${slug}`) return 'created';
      const err = await formErrorText(page);
      return err ? err : null;
    },
    () => `creating ${slug} did not lead to its page`,
  );
  if (outcome !== 'created') {
    check(
      existingIsFine && (outcome.code === 'AccountExists' || /exist/i.test(outcome.text)),
      `creating ${slug} failed: ${outcome.text} (${outcome.code})`,
    );
    log(`${slug} already exists; continuing`);
    await page.goto(`${new URL(page.url()).origin}/accounts/${slug}`, { waitUntil: 'domcontentloaded' });
  }
  await page.getByTestId('account-detail').waitFor({ state: 'visible' });
}
