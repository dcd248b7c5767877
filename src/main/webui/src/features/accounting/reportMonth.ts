/** A calendar month the account page's reports can show, as "YYYY-MM"; none given means the current one. */

/** The current month of {@code now} (UTC) and the {@code before} months before it, newest first. */
export function recentMonths(now: Date, before = 12): string[] {
  const out: string[] = [];
  for (let back = 0; back <= before; back++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    out.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return out;
}

/** The report span of a month: its first day to the next month's first, as dates the server reads in its zone. */
export function monthSpan(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number);
  const next = new Date(Date.UTC(y!, m!, 1));
  return {
    from: `${month}-01`,
    to: `${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, '0')}-01`,
  };
}

/** "November 2026", "2026年11月": the month in the reader's language. */
export function monthLabel(month: string, language: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(y!, m! - 1, 1)));
}
