import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { makeNode } from '../../test/fixtures';
import { NodeTable } from './NodeTable';

describe('the node table', () => {
  it('names the resources of a node that no catalogue model covers, and says nothing when all are covered', () => {
    render(
      <MemoryRouter>
        <NodeTable
          items={[
            makeNode('a100-0'),
            makeNode('mig-0', {
              accelerator: null,
              uncovered: [
                { resource: 'nvidia.com/mig-1g.10gb', count: 14 },
                { resource: 'nvidia.com/mig-3g.40gb', count: 2 },
              ],
            }),
          ]}
        />
      </MemoryRouter>,
    );
    const notes = screen.getAllByTestId('node-uncovered');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.textContent).toBe('Not in the catalogue: nvidia.com/mig-1g.10gb × 14, nvidia.com/mig-3g.40gb × 2');
    expect(notes[0]!.closest('tr')!.dataset.node).toBe('mig-0');
  });

  it('links each node name to its detail page', () => {
    render(
      <MemoryRouter>
        <NodeTable items={[makeNode('rtx-1'), makeNode('a100-0')]} />
      </MemoryRouter>,
    );
    expect(screen.getAllByTestId('node-link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['a100-0', '/admin/nodes/a100-0'],
      ['rtx-1', '/admin/nodes/rtx-1'],
    ]);
  });
});
