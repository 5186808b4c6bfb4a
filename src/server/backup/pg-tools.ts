/**
 * Running PostgreSQL's own tools (pg_dump, pg_restore) on a DATABASE_URL. The URL's parts go to them
 * as libpq's environment variables rather than on the command line, where any user of the machine
 * could read a password in the process list.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Query parameters of a connection URL that libpq also reads from its environment. */
const PARAMETERS: Record<string, string> = {
  sslmode: 'PGSSLMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  connect_timeout: 'PGCONNECT_TIMEOUT',
  application_name: 'PGAPPNAME',
  options: 'PGOPTIONS',
};

export function libpqEnvironment(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {};
  if (url.hostname) env.PGHOST = decodeURIComponent(url.hostname);
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database) env.PGDATABASE = database;
  for (const [name, value] of url.searchParams) {
    const variable = PARAMETERS[name];
    if (variable) env[variable] = value;
    else if (name === 'host') env.PGHOST = value;
  }
  return env;
}

/** Runs a PostgreSQL tool against the database; its standard output, or an error with its message. */
export async function runPgTool(
  tool: 'pg_dump' | 'pg_restore',
  args: string[],
  databaseUrl?: string,
): Promise<string> {
  try {
    const { stdout } = await run(tool, args, {
      env: { ...process.env, ...(databaseUrl ? libpqEnvironment(databaseUrl) : {}) },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { code, stderr } = error as { code?: string; stderr?: string };
    if (code === 'ENOENT') {
      throw new Error(
        `${tool} is not installed (Debian: apt-get install postgresql-client, of the server's major version or later)`,
      );
    }
    throw new Error(`${tool} failed: ${stderr?.trim() || (error as Error).message}`);
  }
}
