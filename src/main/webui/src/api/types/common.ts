/** Wire types of the Crater REST API (v1): shared shapes (lists, pages, problems). */

export interface ItemList<T> {
  items: T[];
}

/** RFC 9457 problem details, as sent by the server. */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  reasons?: unknown[];
}

/** A page of a cursor-paged list; `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
