import { failed, ordinaryResponses, passed, type Judgement, type Rule } from '../rule.ts';

/**
 * RFC 9110 §5.6.7: an HTTP-date is IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`); a recipient
 * must also accept the two obsolete forms (RFC 850's `Sunday, 06-Nov-94 08:49:37 GMT` and C's
 * asctime `Sun Nov  6 08:49:37 1994`), but a sender MUST generate IMF-fixdate. Spec decision
 * http-dates: a value in none of the three forms is a defect (clients that parse HTTP-dates read
 * nothing, or another time); an obsolete form is a warning (every recipient reads it).
 */
const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const RFC850 = new RegExp(`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$`);

export interface HttpDate {
  /** Milliseconds since the epoch. */
  time: number;
  form: 'IMF-fixdate' | 'rfc850-date' | 'asctime-date';
}

/** The time an HTTP-date names, and its form; undefined for anything else (an ISO 8601 time, a numeric zone, an invalid day). */
export function parseHttpDate(value: string): HttpDate | undefined {
  let parts: [day: string, month: string, year: number, h: string, m: string, s: string] | undefined;
  let form: HttpDate['form'] | undefined;
  let match = IMF_FIXDATE.exec(value);
  if (match) [parts, form] = [[match[2]!, match[3]!, Number(match[4]), match[5]!, match[6]!, match[7]!], 'IMF-fixdate'];
  else if ((match = RFC850.exec(value))) {
    // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is read as the most recent past year with those digits.
    const yy = Number(match[4]);
    const now = new Date().getUTCFullYear();
    let year = now - (now % 100) + yy;
    if (year > now + 50) year -= 100;
    [parts, form] = [[match[2]!, match[3]!, year, match[5]!, match[6]!, match[7]!], 'rfc850-date'];
  } else if ((match = ASCTIME.exec(value))) [parts, form] = [[match[3]!.trim(), match[2]!, Number(match[7]), match[4]!, match[5]!, match[6]!], 'asctime-date'];
  if (!parts || !form) return undefined;
  const [day, month, year, h, m, s] = parts;
  const time = Date.UTC(year, MONTHS.indexOf(month), Number(day), Number(h), Number(m), Number(s));
  const back = new Date(time);
  // 31 Feb or 25:00 is no date: Date.UTC would roll it over.
  if (back.getUTCDate() !== Number(day) || back.getUTCHours() !== Number(h) || back.getUTCMinutes() !== Number(m) || Number(s) > 60) return undefined;
  return { time, form };
}

/** The HTTP-date fields an answer may carry (RFC 9110 §6.6.1 Date, §8.8.2 Last-Modified, §10.2.3 Retry-After; RFC 9111 §5.3 Expires). */
const DATE_FIELDS = ['date', 'last-modified', 'expires', 'retry-after'] as const;
const DISPLAY: Record<(typeof DATE_FIELDS)[number], string> = { date: 'Date', 'last-modified': 'Last-Modified', expires: 'Expires', 'retry-after': 'Retry-After' };

/**
 * How much later than Date a Last-Modified may be and still pass: servers stamp Date from a
 * clock cached for up to a second (node:http refreshes its Date once a second), so a
 * Last-Modified of "now" may be one second ahead of it. Anything later is a clock or a zone wrong.
 */
export const LAST_MODIFIED_SLACK_MS = 1000;

/**
 * RFC 9110 §5.6.7 and §8.8.2.1, spec decision http-dates: Date and Last-Modified are HTTP-dates,
 * Retry-After an HTTP-date or delay-seconds, and an origin's Last-Modified is no later than the
 * Date of its answer. Expires is left to the warning: RFC 9111 §5.3 has caches read an invalid
 * Expires (`0`, Spring Security's default) as "already expired", the meaning senders intend.
 */
export const httpDatesValid: Rule = {
  id: 'http-dates-valid',
  severity: 'error',
  title: 'Date fields are HTTP-dates, and Last-Modified is no later than Date',
  proves:
    'every answer\'s Date and Last-Modified are HTTP-dates and its Retry-After an HTTP-date or a number of seconds (RFC 9110 §5.6.7, §10.2.3), and a Last-Modified is no later than the Date of its answer (RFC 9110 §8.8.2.1; one second of slack for a Date cached per second; spec decision http-dates)',
  level: 'response',
  judge: (exchanges) =>
    ordinaryResponses(exchanges).flatMap((exchange): Judgement[] => {
      const headers = exchange.response.headers;
      const problems: string[] = [];
      for (const field of ['date', 'last-modified'] as const) {
        const value = headers[field];
        if (value !== undefined && parseHttpDate(value) === undefined) problems.push(`${DISPLAY[field]}: ${value} is not an HTTP-date (IMF-fixdate: ${new Date(0).toUTCString()})`);
      }
      const retry = headers['retry-after'];
      if (retry !== undefined && !/^\d+$/.test(retry) && parseHttpDate(retry) === undefined) problems.push(`Retry-After: ${retry} is neither an HTTP-date nor a number of seconds`);
      const date = headers.date === undefined ? undefined : parseHttpDate(headers.date);
      const modified = headers['last-modified'] === undefined ? undefined : parseHttpDate(headers['last-modified']);
      if (date && modified && modified.time > date.time + LAST_MODIFIED_SLACK_MS) problems.push(`Last-Modified: ${headers['last-modified']} is ${describeGap(modified.time - date.time)} after the answer's own Date: ${headers.date} (RFC 9110 §8.8.2.1: an origin server MUST NOT send a Last-Modified later than its Date)`);
      if (problems.length === 0) return [passed(exchange)];
      return [failed({ exchange, message: `${exchange.label}: ${problems.join('; ')}.`, expected: 'HTTP-dates (RFC 9110 §5.6.7), and a Last-Modified no later than Date', got: problems.join('; ') })];
    }),
};

/** A sender MUST generate IMF-fixdate (RFC 9110 §5.6.7): the obsolete forms, and an Expires that is no date, are a warning (recipients read them). */
export const httpDatesImfFixdate: Rule = {
  id: 'http-dates-imf-fixdate',
  severity: 'warning',
  title: 'Date fields are sent in IMF-fixdate',
  proves:
    "every HTTP-date an answer carries (Date, Last-Modified, Expires, Retry-After) is sent in IMF-fixdate, not in RFC 850's or asctime's obsolete form, and an Expires is a date, not `0` (RFC 9110 §5.6.7: a sender MUST generate IMF-fixdate; recipients accept the rest, RFC 9111 §5.3; spec decision http-dates)",
  level: 'response',
  judge: (exchanges) =>
    ordinaryResponses(exchanges).flatMap((exchange): Judgement[] => {
      const problems: string[] = [];
      for (const field of DATE_FIELDS) {
        const value = exchange.response.headers[field];
        if (value === undefined || (field === 'retry-after' && /^\d+$/.test(value))) continue;
        const parsed = parseHttpDate(value);
        if (parsed && parsed.form !== 'IMF-fixdate') problems.push(`${DISPLAY[field]}: ${value} is in the obsolete ${parsed.form} form`);
        else if (!parsed && field === 'expires') problems.push(`Expires: ${value} is not an HTTP-date (caches read it as already expired, RFC 9111 §5.3)`);
      }
      if (problems.length === 0) return [passed(exchange)];
      return [failed({ exchange, message: `${exchange.label}: ${problems.join('; ')}.`, expected: 'IMF-fixdate, e.g. Sun, 06 Nov 1994 08:49:37 GMT', got: problems.join('; ') })];
    }),
};

function describeGap(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : `${seconds} seconds`;
}
