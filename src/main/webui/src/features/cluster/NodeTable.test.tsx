import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { makeNode } from '../../test/fixtures';
import { NodeTable } from './NodeTable';

describe('the node table', () => {
  it('names the resources of a node that no catalogue model covers, and says nothing when all are covered', () => {
    render(
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
      />,
    );
    const notes = screen.getAllByTestId('node-uncovered');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.textContent).toBe('Not in the catalogue: nvidia.com/mig-1g.10gb × 14, nvidia.com/mig-3g.40gb × 2');
    expect(notes[0]!.closest('tr')!.dataset.node).toBe('mig-0');
  });
});
