/**
 * Human-readable log lines for a terminal (`npm start`): pino writes its JSON lines here and a person
 * reads one short line per event instead. Anything that is not a terminal, or NODE_ENV=production,
 * keeps pino's JSON (config.logFormat), because that is what log collectors parse.
 *
 * Fastify logs a request twice ("incoming request", then "request completed" without the URL); on a
 * terminal that is one line, written when the answer is sent, so the first is remembered by request id.
 */

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const COLORS: Record<number, string> = { 10: '2', 20: '2', 30: '36', 40: '33', 50: '31', 60: '31;1' };
/** Fields every line has, or that the request line shows in its own way. */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
  'err',
]);
/**
 * Requests seen but not yet answered. A request whose answer is never logged (its connection gone
 * before Fastify answered) would stay; past this many the oldest is dropped, its line then lacking the URL.
 */
const MAX_OPEN_REQUESTS = 1000;

export interface LogFormatOptions {
  /** ANSI colours (a terminal that does not set NO_COLOR). */
  color: boolean;
}

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [key: string]: unknown;
}

/** Turns pino's JSON lines into terminal lines; keeps the requests between their two log lines. */
export function createLogFormatter(options: LogFormatOptions): (line: string) => string | null {
  const paint = (code: string, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const openRequests = new Map<string, { method?: string; url?: string }>();

  return (line) => {
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      return line.endsWith('\n') ? line : `${line}\n`; // not pino's: shown as it is rather than lost
    }
    const level = entry.level ?? 30;
    const head = `${paint('2', clock(entry.time))} ${paint(COLORS[level] ?? '0', (LEVELS[level] ?? String(level)).padEnd(5))}`;

    if (entry.msg === 'incoming request' && entry.reqId !== undefined && entry.req) {
      openRequests.set(entry.reqId, entry.req);
      if (openRequests.size > MAX_OPEN_REQUESTS)
        openRequests.delete(openRequests.keys().next().value as string);
      return null;
    }
    if (entry.msg === 'request completed' && entry.reqId !== undefined && entry.res) {
      const req = openRequests.get(entry.reqId) ?? {};
      openRequests.delete(entry.reqId);
      const status = entry.res.statusCode ?? 0;
      const statusText = paint(status >= 500 ? '31' : status >= 400 ? '33' : '32', String(status));
      const took = entry.responseTime === undefined ? '' : ` ${Math.round(entry.responseTime)} ms`;
      return `${head} ${req.method ?? '?'} ${req.url ?? `(request ${entry.reqId})`} ${statusText}${took}\n`;
    }

    const extra = Object.entries(entry)
      .filter(([key]) => !SHOWN.has(key))
      .map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join('');
    const request = entry.reqId === undefined ? '' : paint('2', ` (${describeRequest(entry, openRequests)})`);
    let text = `${head} ${entry.msg ?? ''}${extra}${request}\n`;
    if (entry.err) {
      // The stack says where; indented so the next event still starts at the left edge.
      const detail = entry.err.stack ?? entry.err.message ?? JSON.stringify(entry.err);
      text += `${detail.replace(/^/gm, '    ')}\n`;
    }
    return text;
  };
}

/** A stream for pino that writes formatted lines to `out` (process.stdout). */
export function prettyLogStream(
  out: { write(text: string): unknown },
  options: LogFormatOptions,
): { write(line: string): void } {
  const format = createLogFormatter(options);
  return {
    write(line) {
      const text = format(line);
      if (text !== null) out.write(text);
    },
  };
}

function describeRequest(entry: Entry, openRequests: Map<string, { method?: string; url?: string }>): string {
  const req = entry.req ?? openRequests.get(entry.reqId as string);
  return req?.method && req.url ? `${req.method} ${req.url}` : `request ${entry.reqId}`;
}

/** Local wall-clock time to the millisecond: the date is what the terminal session already tells. */
function clock(time: number | undefined): string {
  const date = new Date(time ?? Date.now());
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
