/**
 * The server's time zone (`[time] DEFAULT_UI_LOCATION`, else the process's `time.Local`): Gitea
 * renders stored instants through `TimeStamp.AsTime()` in that zone, so an answer's time carries
 * the server's offset (`2024-05-02T01:59:59+02:00`). The sandbox runs in UTC unless told a zone.
 */

export const DEFAULT_TIMEZONE = 'UTC';

/** Whether `zone` is a time zone name the sandbox can play (an IANA name such as `Europe/Berlin`, or `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(zone, f);
  }
  return f;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** An instant as Go's `time.Time.Format(time.RFC3339)` writes it in `zone`: `Z` for a zero offset, else `±hh:mm`. */
export function formatInZone(iso: string, zone: string): string {
  const ms = Math.floor(Date.parse(iso) / 1000) * 1000;
  const part: Record<string, number> = {};
  for (const p of formatOf(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') part[p.type] = Number(p.value);
  const wall = Date.UTC(part.year!, part.month! - 1, part.day, part.hour, part.minute, part.second);
  const offset = Math.round((wall - ms) / 60_000);
  const zoneText = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${pad(part.year!, 4)}-${pad(part.month!)}-${pad(part.day!)}T${pad(part.hour!)}:${pad(part.minute!)}:${pad(part.second!)}${zoneText}`;
}
