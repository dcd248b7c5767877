import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Image } from '../../api/types';
import { json, mockFetch } from '../../test/mockFetch';
import { ImagesPage } from './ImagesPage';

const IMAGE: Image = {
  id: 'im_abcdefgh',
  reference: 'registry.lab:5000/vision/trainer',
  registry: 'registry.lab:5000',
  repository: 'vision/trainer',
  owner: 'ada',
  description: 'PyTorch trainer',
  tags: ['2.3-cuda12.1', 'gone'],
  cudaVersion: '12.1',
  architectures: ['amd64', 'arm64'],
  vendors: ['nvidia'],
  kinds: ['jupyter', 'pytorch'],
  visibility: 'account',
  account: 'lab',
  sharedWith: { users: ['bob'], accounts: [] },
  checks: [],
  createdAt: '2026-12-01T10:00:00Z',
  updatedAt: '2026-12-01T10:00:00Z',
  mayEdit: true,
};

const CHECKED: Image = {
  ...IMAGE,
  checks: [
    {
      tag: '2.3-cuda12.1',
      result: 'ok',
      detail: null,
      digest: 'sha256:1f2e',
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      checkedAt: '2026-12-01T11:00:00Z',
    },
    {
      tag: 'gone',
      result: 'not-found',
      detail: 'the registry has no manifest registry.lab:5000/vision/trainer:gone',
      digest: null,
      mediaType: null,
      checkedAt: '2026-12-01T11:00:00Z',
    },
  ],
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ImagesPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('ImagesPage', () => {
  it('lists an image with its tags, CUDA, platforms, kinds and sharing, and shows each tag after a check', async () => {
    let checked = false;
    const sent = mockFetch({
      'GET /api/v1/images': () => json({ items: [checked ? CHECKED : IMAGE], nextCursor: null }),
      'POST /api/v1/images/im_abcdefgh/validate': () => {
        checked = true;
        return json(CHECKED);
      },
    });
    renderPage();
    const row = await screen.findByTestId('image-im_abcdefgh');
    expect(row.textContent).toContain('registry.lab:5000/vision/trainer');
    expect(row.textContent).toContain('CUDA 12.1');
    expect(row.textContent).toContain('amd64, arm64');
    expect(row.textContent).toContain('nvidia');
    expect(row.textContent).toContain('jupyter');
    expect(row.textContent).toContain('Account (lab)');
    expect(within(row).getByTestId('image-shared').textContent).toBe('Shared with bob');
    expect(within(row).getByTestId('image-checks-toggle').textContent).toBe('Not checked');

    fireEvent.click(within(row).getByTestId('image-check'));
    const checks = await screen.findByTestId('image-checks-im_abcdefgh');
    const ok = within(checks).getByTestId('image-check-2.3-cuda12.1');
    expect(within(ok).getByTestId('status-badge').getAttribute('data-status')).toBe('ok');
    expect(ok.textContent).toContain('sha256:1f2e');
    const gone = within(checks).getByTestId('image-check-gone');
    expect(within(gone).getByTestId('status-badge').textContent).toBe('Not found');
    expect(gone.textContent).toContain('the registry has no manifest');
    await waitFor(() =>
      expect(within(screen.getByTestId('image-im_abcdefgh')).getByTestId('image-checks-toggle').textContent).toBe('1 of 2 tags ok'),
    );
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it("filters by kind and own images, and offers no actions on another person's image", async () => {
    const sent = mockFetch({
      'GET /api/v1/images': (req) =>
        json({
          items:
            req.query.get('mine') === 'true' ? [] : [{ ...IMAGE, owner: 'bob', mayEdit: false, sharedWith: { users: [], accounts: [] } }],
          nextCursor: null,
        }),
    });
    renderPage();
    const row = await screen.findByTestId('image-im_abcdefgh');
    expect(within(row).queryByTestId('image-check')).toBeNull();
    expect(within(row).queryByTestId('image-delete')).toBeNull();
    fireEvent.change(screen.getByTestId('images-kind'), { target: { value: 'pytorch' } });
    fireEvent.click(screen.getByTestId('images-mine'));
    expect(await screen.findByText('No images yet')).toBeTruthy();
    const last = sent[sent.length - 1];
    expect(last?.query.get('kind')).toBe('pytorch');
    expect(last?.query.get('mine')).toBe('true');
  });

  it('shows the error state when the list cannot be read', async () => {
    mockFetch({ 'GET /api/v1/images': json({ status: 500, code: 'Internal', detail: 'boom' }, 500) });
    renderPage();
    expect(await screen.findByText('The images could not be loaded')).toBeTruthy();
  });

  it('checks the form before sending, adds the image with its shares, and shows a refusal under its field', async () => {
    const sent = mockFetch({
      'GET /api/v1/images': json({ items: [], nextCursor: null }),
      'POST /api/v1/images': [
        json(
          {
            status: 400,
            code: 'InvalidImage',
            detail: 'the image cannot be saved as given',
            errors: [{ field: 'sharedWith.users', message: 'no user nobody' }],
          },
          400,
        ),
        json(IMAGE, 201),
      ],
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('images-add'));
    fireEvent.change(screen.getByTestId('image-reference'), { target: { value: 'ghcr.io/org/trainer:2.3' } });
    fireEvent.click(screen.getByTestId('image-save'));
    expect(await screen.findByText('A registry and repository without tag or digest')).toBeTruthy();
    expect(screen.getByText('1 to 50 tags of letters, digits, _, . or - (not starting with . or -)')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByTestId('image-reference'), { target: { value: 'ghcr.io/org/trainer' } });
    fireEvent.change(screen.getByTestId('image-tags'), { target: { value: '2.3, latest' } });
    fireEvent.change(screen.getByTestId('image-vendors'), { target: { value: 'NVIDIA' } });
    fireEvent.click(screen.getByTestId('image-kind-pytorch'));
    fireEvent.change(screen.getByTestId('image-share-users'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByTestId('image-save'));
    expect(await screen.findByText('no user nobody')).toBeTruthy();
    fireEvent.change(screen.getByTestId('image-share-users'), { target: { value: 'bob' } });
    fireEvent.click(screen.getByTestId('image-save'));
    await waitFor(() => expect(screen.queryByTestId('image-dialog')).toBeNull());
    const posts = sent.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.body).toMatchObject({
      reference: 'ghcr.io/org/trainer',
      tags: ['2.3', 'latest'],
      vendors: ['nvidia'],
      kinds: ['pytorch'],
      architectures: ['amd64'],
      sharedWith: { users: ['bob'], accounts: [] },
    });
  });

  it('edits an own image: only the changes are sent', async () => {
    const sent = mockFetch({
      'GET /api/v1/images': json({ items: [IMAGE], nextCursor: null }),
      'PUT /api/v1/images/im_abcdefgh': json({ ...IMAGE, sharedWith: { users: ['bob'], accounts: ['nlp'] } }),
    });
    renderPage();
    fireEvent.click(within(await screen.findByTestId('image-im_abcdefgh')).getByTestId('image-edit'));
    fireEvent.change(screen.getByTestId('image-share-accounts'), { target: { value: 'nlp' } });
    fireEvent.click(screen.getByTestId('image-save'));
    await waitFor(() => expect(sent.some((r) => r.method === 'PUT')).toBe(true));
    expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({ sharedWith: { users: ['bob'], accounts: ['nlp'] } });
  });
});
