import type { CalendarEvent } from './regulatory-calendar.ts';

/** RFC 5545 TEXT escaping: backslash, semicolon, comma and newline. */
export function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    // Continuation lines start with a space, which counts towards their 75.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const basicDate = (iso: string) => iso.slice(0, 10).replace(/-/g, '');

function nextDay(iso: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** UTC date-time in the basic format, e.g. 20261127T013000Z. */
export function stamp(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/**
 * A text/calendar document of all-day events (RFC 5545): CRLF line ends, folded lines, escaped text, a
 * stable UID per event so a subscribed client updates rather than duplicates.
 */
export function toICalendar(
  events: readonly CalendarEvent[],
  opts: { name: string; domain: string; now: Date; link?: (e: CalendarEvent) => string | undefined },
): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Voltfolio//Regulatory calendar//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(opts.name)}`,
  ];
  for (const e of events) {
    const url = opts.link?.(e);
    const summary = `${e.siteName}: ${e.title}`;
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.id}@${opts.domain}`,
      `DTSTAMP:${stamp(opts.now)}`,
      `DTSTART;VALUE=DATE:${basicDate(e.date)}`,
      `DTEND;VALUE=DATE:${basicDate(nextDay(e.date))}`,
      `SUMMARY:${escapeText(summary)}`,
      `DESCRIPTION:${escapeText(`${e.action}${e.proposed ? '\nThis date is proposed, not yet law.' : ''}`)}`,
      `CATEGORIES:${escapeText(e.kind)}`,
      'TRANSP:TRANSPARENT',
      ...(url ? [`URL:${url}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
