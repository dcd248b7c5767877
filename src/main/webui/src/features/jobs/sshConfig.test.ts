import { describe, expect, it } from 'vitest';
import { sshHostAlias } from './sshConfig';

describe('sshHostAlias', () => {
  it.each([
    ['Host crater-jabc123\n  HostName localhost\n  Port 2222\n  User tess+jabc123\n', 'crater-jabc123'],
    ['Host crater-jabc123-worker-1\r\n  HostName crater.example\r\n', 'crater-jabc123-worker-1'],
    ['# Crater\nhost crater-j1\n  HostName h\n', 'crater-j1'],
    ['  HostName localhost\n  Port 2222\n', null],
    ['', null],
  ])('%j → %s', (config, alias) => {
    expect(sshHostAlias(config)).toBe(alias);
  });
});
