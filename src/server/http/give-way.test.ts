import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type ForegroundRequests, inSlices, registerForegroundRequests } from './give-way.ts';

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** A server whose /slow answers when `finish` is called, and whose /long is a stream that says so. */
async function server(maxWaitMs: number) {
  const app = Fastify();
  apps.push(app);
  const foreground: ForegroundRequests = registerForegroundRequests(app, maxWaitMs);
  let finish = () => {};
  app.get('/slow', async () => {
    await new Promise<void>((resolve) => {
      finish = resolve;
    });
    return 'done';
  });
  app.get('/long', async (request) => {
    foreground.runsLong(request);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return 'long';
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { foreground, base, finish: () => finish() };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
};

describe('streams give way to the requests in flight', () => {
  it('waits while a request is in flight and goes on as soon as it is answered', async () => {
    const { foreground, base, finish } = await server(5_000);
    await foreground.giveWay();
    const answer = fetch(`${base}/slow`);
    await until(() => foreground.inFlight() === 1);
    let given = false;
    const waiting = foreground.giveWay().then(() => {
      given = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(given).toBe(false);
    finish();
    await (await answer).text();
    await waiting;
    expect(given).toBe(true);
    expect(foreground.inFlight()).toBe(0);
  });

  it('waits at most its longest wait, so a stream moves while requests keep arriving', async () => {
    const { foreground, base, finish } = await server(30);
    const answer = fetch(`${base}/slow`);
    await until(() => foreground.inFlight() === 1);
    const started = performance.now();
    await foreground.giveWay();
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(foreground.inFlight()).toBe(1);
    finish();
    await (await answer).text();
  });

  it('does not count a stream that says it runs long, nor a request whose client went away', async () => {
    const { foreground, base, finish } = await server(5_000);
    const long = fetch(`${base}/long`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(foreground.inFlight()).toBe(0);
    await (await long).text();

    const gone = new AbortController();
    const slow = fetch(`${base}/slow`, { signal: gone.signal }).catch(() => 'aborted');
    await until(() => foreground.inFlight() === 1);
    gone.abort();
    await slow;
    await until(() => foreground.inFlight() === 0);
    finish();
  });

  it('cuts rows into slices, in order, giving way after each', async () => {
    let gives = 0;
    const parts: string[] = [];
    for await (const part of inSlices(
      [1, 2, 3, 4, 5],
      2,
      (slice) => slice.join(','),
      async () => {
        gives += 1;
      },
    ))
      parts.push(part);
    expect(parts).toEqual(['1,2', '3,4', '5']);
    expect(gives).toBe(3);
  });
});
