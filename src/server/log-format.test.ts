import { describe, expect, it } from 'vitest';
import { createLogFormatter, prettyLogStream } from './log-format.ts';

// Local time components, so the expected clock reads the same in every time zone.
const at = (ms: number) => new Date(2026, 0, 2, 3, 4, 5, ms).getTime();
const json = (entry: object) => JSON.stringify(entry);

describe('terminal log lines', () => {
  it('writes a request as one line when it is answered: method, URL, status, time', () => {
    const format = createLogFormatter({ color: false });
    const incoming = {
      level: 30,
      time: at(6),
      pid: 1,
      hostname: 'vm',
      reqId: 'req-7',
      msg: 'incoming request',
    };
    expect(
      format(json({ ...incoming, req: { method: 'GET', url: '/api/v1/health', host: 'localhost:3000' } })),
    ).toBe(null);
    const completed = {
      level: 30,
      time: at(90),
      pid: 1,
      hostname: 'vm',
      reqId: 'req-7',
      msg: 'request completed',
    };
    expect(format(json({ ...completed, res: { statusCode: 200 }, responseTime: 81.6 }))).toBe(
      '03:04:05.090 INFO  GET /api/v1/health 200 82 ms\n',
    );
    // Answered once: a second "completed" for the same id no longer knows the URL.
    expect(format(json({ ...completed, res: { statusCode: 200 } }))).toBe(
      '03:04:05.090 INFO  ? (request req-7) 200\n',
    );
  });

  it('writes an event with its extra fields, the request it belongs to, and an error stack indented', () => {
    const format = createLogFormatter({ color: false });
    format(
      json({
        level: 30,
        time: at(0),
        reqId: 'req-2',
        msg: 'incoming request',
        req: { method: 'POST', url: '/x' },
      }),
    );
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at db.ts:1' };
    expect(
      format(json({ level: 50, time: at(1), reqId: 'req-2', msg: 'request failed', blockId: 4, err })),
    ).toBe('03:04:05.001 ERROR request failed blockId=4 (POST /x)\n    Error: boom\n        at db.ts:1\n');
    expect(format(json({ level: 40, time: at(2), msg: 'anchor: retry', network: 'devnet' }))).toBe(
      '03:04:05.002 WARN  anchor: retry network=devnet\n',
    );
  });

  it('colours the level and the status only when asked to', () => {
    const format = createLogFormatter({ color: true });
    format(
      json({ level: 30, time: at(0), reqId: 'r', msg: 'incoming request', req: { method: 'GET', url: '/' } }),
    );
    const line = format(
      json({ level: 30, time: at(0), reqId: 'r', msg: 'request completed', res: { statusCode: 503 } }),
    );
    expect(line).toBe(
      '\u001b[2m03:04:05.000\u001b[0m \u001b[36mINFO \u001b[0m GET / \u001b[31m503\u001b[0m\n',
    );
  });

  it('passes a line that is not JSON through instead of losing it', () => {
    expect(createLogFormatter({ color: false })('plain text')).toBe('plain text\n');
  });

  it('the stream writes formatted lines only, nothing for the first half of a request', () => {
    const written: string[] = [];
    const stream = prettyLogStream({ write: (text: string) => written.push(text) }, { color: false });
    stream.write(
      `${json({ level: 30, time: at(0), reqId: 'a', msg: 'incoming request', req: { method: 'GET', url: '/' } })}\n`,
    );
    stream.write(
      `${json({ level: 30, time: at(0), msg: 'listening at http://localhost:3000 (bound to 127.0.0.1:3000)' })}\n`,
    );
    expect(written).toEqual([
      '03:04:05.000 INFO  listening at http://localhost:3000 (bound to 127.0.0.1:3000)\n',
    ]);
  });
});
