/** Date and time helpers for display and for <input type="datetime-local"> values. */

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local date-time in the form a datetime-local input expects: "2025-03-04T09:05". */
export function toLocalInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` + `T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local (or date) input value → ISO-8601 instant; null when empty or invalid. */
export function localInputToIso(value: string): string | null {
  if (value.trim() === '') return null;
  const normalized = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59` : value;
  const date = new Date(normalized);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The same time of day `days` days after `from`. */
export function daysFrom(from: Date, days: number): Date {
  const d = new Date(from.getTime());
  d.setDate(d.getDate() + days);
  return d;
}

/** Date and time for tables, in the UI language; "—" for null or unparsable values. */
export function formatDateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Whether the instant lies before `now`. */
export function isPast(iso: string | null | undefined, now: number = Date.now()): boolean {
  if (!iso) return false;
  const t = Date.parse(iso);
  return !Number.isNaN(t) && t < now;
}
