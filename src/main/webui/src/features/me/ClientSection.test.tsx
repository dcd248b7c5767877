import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18n from '../../i18n';
import type { ClientInfo } from '../../api/cli';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { ClientSection } from './ClientSection';
import { ProfilePage } from './ProfilePage';

const SHA = '9f2c4e1b7a0d3c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6';
const AVAILABLE: ClientInfo = {
  available: true,
  version: '0.1.0-SNAPSHOT',
  sizeBytes: 3202349,
  sha256: SHA,
  install: 'curl -fsSL https://crater.example.org/cli/install.sh | sh',
  login: 'crater login https://crater.example.org',
};
const UNAVAILABLE: ClientInfo = {
  available: false,
  version: '0.1.0-SNAPSHOT',
  sizeBytes: null,
  sha256: null,
  install: null,
  login: 'crater login https://crater.example.org',
};

function renderWithClient(element: React.ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/profile'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

function stubClipboard(writeText: ((text: string) => Promise<void>) | undefined) {
  Object.defineProperty(navigator, 'clipboard', {
    value: writeText === undefined ? undefined : { writeText },
    configurable: true,
  });
}

afterEach(async () => {
  vi.unstubAllGlobals();
  stubClipboard(undefined);
  window.getSelection()?.removeAllRanges();
  await i18n.changeLanguage('en');
});

describe('ClientSection', () => {
  it('shows progress while the server has not answered', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    renderWithClient(<ClientSection />);
    const section = await screen.findByTestId('cli-section');
    expect(within(section).getByRole('heading').textContent).toBe('Command-line client');
    expect(within(section).getByRole('status').textContent).toContain('Loading…');
    expect(within(section).queryByTestId('cli-install')).toBeNull();
  });

  it('says why it failed and loads again on retry', async () => {
    const sent = mockFetch({
      'GET /api/v1/cli': [problem(503, 'Unavailable', 'the server is starting'), json(AVAILABLE)],
    });
    renderWithClient(<ClientSection />);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain("Could not load the command-line client's details.");
    expect(error.textContent).toContain('the server is starting');
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('cli-install')).textContent).toBe(AVAILABLE.install);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/cli', 'GET /api/v1/cli']);
  });

  it('explains that the server was started without the client, and offers nothing to run', async () => {
    mockFetch({ 'GET /api/v1/cli': json(UNAVAILABLE) });
    renderWithClient(<ClientSection />);
    const note = await screen.findByTestId('cli-unavailable');
    expect(note.textContent).toContain('started without the command-line client');
    expect(note.textContent).toContain('mvn package');
    expect(screen.queryByTestId('cli-install')).toBeNull();
    expect(screen.queryByTestId('cli-login')).toBeNull();
    expect(screen.queryByTestId('cli-download')).toBeNull();
  });

  it('shows the install and sign-in lines, the jar with its size and digest, and the next commands', async () => {
    mockFetch({ 'GET /api/v1/cli': json(AVAILABLE) });
    renderWithClient(<ClientSection />);
    expect((await screen.findByTestId('cli-install')).textContent).toBe(AVAILABLE.install);
    expect(screen.getByTestId('cli-login').textContent).toBe(AVAILABLE.login);
    const section = screen.getByTestId('cli-section');
    expect(section.textContent).toContain('Java 17 or newer');
    expect(screen.getByTestId('cli-version').textContent).toBe('0.1.0-SNAPSHOT');
    expect(screen.getByTestId('cli-size').textContent).toBe('3.1 MiB');
    expect(screen.getByTestId('cli-download').getAttribute('href')).toBe('/cli/crater.jar');
    expect(screen.getByTestId('cli-sha256').textContent).toBe(SHA);
    expect(section.textContent).toContain('crater --help');
    expect(screen.getAllByTestId('cli-next').map((li) => li.querySelector('code')?.textContent)).toEqual([
      'crater job submit --template batch --set command="python run.py"',
      'crater job logs -f JOB',
      'crater job ssh JOB',
    ]);
  });

  it('copies each line to the clipboard and confirms it', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>(() => Promise.resolve());
    stubClipboard(writeText);
    mockFetch({ 'GET /api/v1/cli': json(AVAILABLE) });
    renderWithClient(<ClientSection />);
    const copyInstall = await screen.findByTestId('cli-install-copy');
    expect(copyInstall.textContent).toBe('Copy');
    fireEvent.click(copyInstall);
    await waitFor(() => expect(copyInstall.textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith(AVAILABLE.install);
    const copyLogin = screen.getByTestId('cli-login-copy');
    fireEvent.click(copyLogin);
    await waitFor(() => expect(copyLogin.textContent).toBe('Copied'));
    expect(writeText).toHaveBeenLastCalledWith(AVAILABLE.login);
    expect(writeText).toHaveBeenCalledTimes(2);
  });

  it('selects the line when the page has no clipboard (plain HTTP), and says to press Ctrl+C', async () => {
    stubClipboard(undefined);
    mockFetch({ 'GET /api/v1/cli': json(AVAILABLE) });
    renderWithClient(<ClientSection />);
    const copy = await screen.findByTestId('cli-login-copy');
    fireEvent.click(copy);
    await waitFor(() => expect(copy.textContent).toContain('Ctrl+C'));
    expect(window.getSelection()?.toString()).toBe(AVAILABLE.login);
  });

  it('selects the line when the browser refuses to write the clipboard', async () => {
    stubClipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    mockFetch({ 'GET /api/v1/cli': json(AVAILABLE) });
    renderWithClient(<ClientSection />);
    const copy = await screen.findByTestId('cli-install-copy');
    fireEvent.click(copy);
    await waitFor(() => expect(copy.textContent).toContain('Ctrl+C'));
    expect(window.getSelection()?.toString()).toBe(AVAILABLE.install);
  });

  it('speaks Chinese: title, size with its unit, and the copy confirmation', async () => {
    await i18n.changeLanguage('zh-CN');
    stubClipboard(vi.fn<(text: string) => Promise<void>>(() => Promise.resolve()));
    mockFetch({ 'GET /api/v1/cli': json(AVAILABLE) });
    renderWithClient(<ClientSection />);
    const section = await screen.findByTestId('cli-section');
    expect(within(section).getByRole('heading').textContent).toBe('命令行客户端');
    expect((await screen.findByTestId('cli-size')).textContent).toBe('3.1 MiB');
    expect(section.textContent).toContain('Java 17');
    const copy = screen.getByTestId('cli-install-copy');
    fireEvent.click(copy);
    await waitFor(() => expect(copy.textContent).toBe('已复制'));
  });

  it('speaks Chinese when the client is not available', async () => {
    await i18n.changeLanguage('zh-CN');
    mockFetch({ 'GET /api/v1/cli': json(UNAVAILABLE) });
    renderWithClient(<ClientSection />);
    const note = await screen.findByTestId('cli-unavailable');
    expect(note.textContent).toContain('未带命令行客户端');
    expect(note.textContent).toContain('mvn package');
  });
});

describe('ProfilePage', () => {
  it('shows the command-line client just before the access tokens', async () => {
    mockFetch({
      'GET /api/v1/me': json({ id: '1', username: 'ada', slug: 'ada', displayName: 'Ada', email: null, uid: 10001 }),
      'GET /api/v1/me/tokens': json({ items: [] }),
      'GET /api/v1/me/ssh-keys': json({ items: [] }),
      'GET /api/v1/cli': json(AVAILABLE),
    });
    renderWithClient(<ProfilePage />);
    await screen.findByTestId('cli-install');
    const sections = [...document.querySelectorAll('section')].map((s) => s.getAttribute('data-testid'));
    expect(sections.indexOf('cli-section')).toBe(sections.indexOf('tokens-section') - 1);
    expect(screen.getByTestId('tokens-section')).toBeTruthy();
  });
});
