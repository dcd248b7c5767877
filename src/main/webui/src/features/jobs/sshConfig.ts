/** The host alias of a ~/.ssh/config entry (its `Host` line), which VS Code Remote-SSH offers; null without one. */
export function sshHostAlias(config: string): string | null {
  for (const line of config.split(/\r?\n/)) {
    const match = /^\s*Host\s+(\S+)/i.exec(line);
    if (match) return match[1] ?? null;
  }
  return null;
}
