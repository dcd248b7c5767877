import type { ImportReport } from '../../api/types';
import { toCsv } from '../../lib/csv';

/** Created users with a generated password, as CSV (line, username, password); null when there are none. */
export function generatedPasswordsCsv(report: ImportReport): string | null {
  const rows = report.created
    .filter((c) => c.password !== null && c.password !== '')
    .slice()
    .sort((a, b) => a.line - b.line)
    .map((c) => [c.line, c.username, c.password]);
  if (rows.length === 0) return null;
  return toCsv([['line', 'username', 'password'], ...rows]);
}

/** One table row per CSV line of the import, created and refused merged in line order. */
export interface ImportRow {
  line: number;
  username: string | null;
  outcome: 'created' | 'refused';
  /** The generated password (created) or the refusal reason (refused). */
  detail: string | null;
}

export function importRows(report: ImportReport): ImportRow[] {
  const rows: ImportRow[] = [
    ...report.created.map((c) => ({
      line: c.line,
      username: c.username,
      outcome: 'created' as const,
      detail: c.password,
    })),
    ...report.refused.map((r) => ({ line: r.line, username: r.username, outcome: 'refused' as const, detail: r.reason })),
  ];
  return rows.sort((a, b) => a.line - b.line);
}

/** The CSV header line the import endpoint expects. */
export const IMPORT_HEADER = 'username,displayName,email,password,account,accountRole';
