// Root postinstall (after `npm install` / `npm ci`). It runs on the Node that npm scripts find first,
// node_modules/.bin/node: Node 24 from the `node` dependency. Plain JavaScript so it also runs (and
// explains itself) should that binary be missing.
//
// Why it exists: npm itself may have run on the machine's older Node (Debian's Node 20). npm then
// silently leaves out every optional package whose `engines` that Node does not satisfy, whatever
// the flags; here that is Hardhat EDR's native binary (>= 22), without which the server cannot start
// its devnet. So when npm ran on a Node older than 22, we run the same npm once more on Node 24: it
// only adds what was left out (and checks every engine strictly, now against the Node that runs us).
import { spawnSync } from 'node:child_process';

const ourMajor = Number(process.versions.node.split('.')[0]);
const npmNode = process.env.npm_node_execpath;
const npmCli = process.env.npm_execpath;

function majorOf(nodePath) {
  const probe = spawnSync(nodePath, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return probe.status === 0 ? Number(probe.stdout.trim().split('.')[0]) : 0;
}

// UVTRACE_FINISHING_INSTALL: the second run's own postinstall must not start a third.
if (npmNode && npmCli && !process.env.UVTRACE_FINISHING_INSTALL && majorOf(npmNode) < 22) {
  if (ourMajor < 22) {
    console.error(
      `uvtrace: npm ran on Node ${process.version} and node_modules/.bin/node is missing or too old, ` +
        'so the `node` dependency (Node 24) was not installed. Is its install script allowed ' +
        '(package.json "allowScripts")?',
    );
    process.exit(1);
  }
  console.log(
    `uvtrace: npm ran on Node ${majorOf(npmNode)}, which skips packages that need Node >= 22 (npm's ` +
      `EBADENGINE warnings, hidden by .npmrc); finishing the install with Node ${process.version} from node_modules…`,
  );
  const finish = spawnSync(
    process.execPath,
    [npmCli, 'install', '--engine-strict', '--no-audit', '--no-fund'],
    { stdio: 'inherit', env: { ...process.env, UVTRACE_FINISHING_INSTALL: '1' } },
  );
  process.exit(finish.status ?? 1);
}
