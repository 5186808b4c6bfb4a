// Plain JavaScript on purpose: it must run (and explain itself) on a Node too old for TypeScript.
// npm scripts run the Node of the `node` dependency (node_modules/.bin comes first on their PATH), so
// an old Node here means that dependency is missing: npm install was not run, or skipped its script.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `uvtrace needs Node.js >= 22.12 (Node 24 LTS recommended); this is ${process.version} (${process.execPath}).\n` +
      'Run `npm install`: it installs Node 24 into node_modules (the `node` dependency), which npm scripts use.\n' +
      "If it did and this persists, node_modules/.bin/node is missing: was the `node` package's install script\n" +
      'blocked (package.json "allowScripts", npm --ignore-scripts)?',
  );
  process.exit(1);
}
