/**
 * Issue due dates in the server's time zone. Gitea stores a due date as 23:59:59 of the day the sent
 * time names, in the offset it was sent with (routers/api/v1/repo/issue.go `time.Date(y, m, d, 23,
 * 59, 59, 0, deadline.Location())`), and answers every time in its own zone (`TimeStamp.AsTime()`,
 * `[time] DEFAULT_UI_LOCATION`, else the process's zone). A date sent as UTC midnight therefore reads
 * back as the next day on a server east of UTC. forgeform compares the calendar date as the server
 * writes it, and sends the day with the server's offset, read from the issue's own answer.
 */

/** "2027-01-15" of "2027-01-15T23:59:59+09:00": the day as the server means it (null: none). */
export function serverDate(value: unknown): string | null {
  return value === null || value === undefined || value === '' ? null : String(value).slice(0, 10);
}

/** The UTC offset an answer's time is written with ("+09:00", "-05:00", "Z"); undefined when it has none. */
export function utcOffsetOf(time: unknown): string | undefined {
  if (typeof time !== 'string') return undefined;
  const m = /T[\d:.]+(Z|[+-]\d{2}:\d{2})$/i.exec(time.trim());
  return m?.[1]?.toUpperCase();
}

/**
 * The server's offset as an issue answer shows it: its due date's (the offset of that very day), else
 * its last update's or its creation's; UTC when the answer has no time.
 */
export function serverOffset(issue: { due_date?: unknown; updated_at?: unknown; created_at?: unknown }): string {
  return utcOffsetOf(issue.due_date) ?? utcOffsetOf(issue.updated_at) ?? utcOffsetOf(issue.created_at) ?? 'Z';
}

/** What `due_date` carries for a day: its start in the server's offset, so that the server stores the end of that same day. */
export function dueDateToSend(day: string, offset: string): string {
  return `${day}T00:00:00${offset}`;
}
