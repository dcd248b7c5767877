/** A whole count with the language's digit grouping: 10000 → "10,000" in English. */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}
