/** Patterns typed as a comma- or space-separated list. */
export function patterns(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}
