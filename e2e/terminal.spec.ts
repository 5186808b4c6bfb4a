import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/*
 * The terminal side of the product, checked on real processes.
 * Item 13: the server `npm start` runs (src/server/main.ts; scripts/start.ts only builds the app
 * first) prints one readable line per event on a terminal — a pseudo-terminal made by util-linux
 * `script` — and pino's JSON lines when its output is a pipe; either way the banner and the log's
 * "listening at" line name the same address. Item 14: with the machine's own Node (Debian's 20) first
 * on PATH, npm scripts run on the Node 24 that `npm install` put into node_modules, so README's two
 * commands work as they are.
 */

const root = path.resolve(import.meta.dirname, '..');
/** The machine's own Node and npm, outside node_modules (Debian's packages). */
const MACHINE_NODE = '/usr/bin/node';
const MACHINE_NPM = '/usr/bin/npm';

/** The environment of a fresh shell on the machine: its own PATH, none of the test runner's. */
function machineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { HOME: process.env.HOME, PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', ...extra };
}

/** A terminal control sequence (colour, cursor), as `script` passes them on. */
const ESCAPE_SEQUENCE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

interface Server {
  process: ChildProcess;
  /** Everything printed so far, terminal escapes and carriage returns removed. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the server on a free port (PORT=0) with its own embedded database under `dataDir`. */
function startServer(dataDir: string, onTerminal: boolean): Server {
  const env = machineEnv({
    PATH: `${path.join(root, 'node_modules/.bin')}:/usr/local/bin:/usr/bin:/bin`,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    NO_COLOR: '1',
  });
  const command = 'node src/server/main.ts';
  const child = onTerminal
    ? spawn('script', ['-qfec', command, '/dev/null'], { cwd: root, env, detached: true })
    : spawn('sh', ['-c', `exec ${command}`], { cwd: root, env, detached: true });
  let text = '';
  const collect = (chunk: Buffer) => {
    text += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    output: () => text.replace(/\r/g, '').replace(ESCAPE_SEQUENCE, ''),
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

/** The URL the banner says the app runs at, once it is printed. */
async function bannerUrl(server: Server): Promise<string> {
  await expect
    .poll(() => /uvtrace is running at (\S+) /.exec(server.output())?.[1], { timeout: 90_000 })
    .toMatch(/^http:\/\//);
  return /uvtrace is running at (\S+) /.exec(server.output())?.[1] as string;
}

test.describe('the terminal', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  let dataDir = '';
  test.beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'uvtrace-terminal-'));
  });
  test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('item 13: on a terminal one readable line per event, the same address in banner and log', async ({
    request,
  }) => {
    test.skip(!existsSync('/usr/bin/script'), 'util-linux script (a pseudo-terminal) is not installed');
    const server = startServer(dataDir, true);
    try {
      const url = await bannerUrl(server);
      expect((await request.get(`${url}/api/v1/customers`)).status()).toBe(401);
      // The request is one line: clock, level, method, path, status, time.
      await expect
        .poll(() => server.output())
        .toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}GET \/api\/v1\/customers 401 \d+ ms$/m);
      const log = server.output();
      expect(log).toContain(`INFO  listening at ${url} (bound to `);
      // No JSON line reaches the terminal.
      expect(log.split('\n').filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  test('item 13: not on a terminal pino JSON lines, the same address in banner and log', async ({
    request,
  }) => {
    const server = startServer(dataDir, false);
    try {
      const url = await bannerUrl(server);
      expect((await request.get(`${url}/api/v1/customers`)).status()).toBe(401);
      await expect.poll(() => server.output()).toContain('"msg":"request completed"');
      const entries = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; hostname: string });
      expect(entries.map((entry) => entry.msg)).toContain('incoming request');
      const listening = entries.find((entry) => entry.msg.startsWith('listening at '));
      expect(listening?.msg).toMatch(new RegExp(`^listening at ${url.replace(/[.]/g, '\\.')} \\(bound to `));
      // Outside the banner, every line is JSON.
      const banner = /\nuvtrace is running at [\s\S]*?\n\n/.exec(server.output())?.[0] ?? '';
      const other = server
        .output()
        .replace(banner, '\n')
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.startsWith('{') && !line.startsWith('First start'));
      expect(other).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  test("item 14: with the machine's Node 20 on PATH, npm scripts run on node_modules' Node 24", () => {
    test.skip(!existsSync(MACHINE_NODE) || !existsSync(MACHINE_NPM), 'no machine Node/npm under /usr/bin');
    const machine = spawnSync(MACHINE_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
    test.skip(!machine.startsWith('v20.'), `the machine's Node is ${machine}, not the Node 20 this checks`);

    // What `npm start` and `npm test` see: their `node` is the dependency's.
    const npm = (args: string[]) =>
      spawnSync(MACHINE_NPM, args, { cwd: root, env: machineEnv(), encoding: 'utf8' });
    const version = npm(['exec', '-c', 'node --version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^v24\./);
    // `npm start`'s and `npm test`'s version check (scripts/check-node.mjs) passes on it.
    const check = npm(['run', '--silent', 'prestart']);
    expect(check.stderr.replace(/npm warn.*\n?/gi, '')).toBe('');
    expect(check.status).toBe(0);
    // The machine's Node alone would be refused with the explanation.
    const direct = spawnSync(MACHINE_NODE, ['scripts/check-node.mjs'], { cwd: root, encoding: 'utf8' });
    expect(direct.status).toBe(1);
    expect(direct.stderr).toContain('Run `npm install`: it installs Node 24 into node_modules');
  });
});
