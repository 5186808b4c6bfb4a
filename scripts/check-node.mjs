// Plain JavaScript on purpose: it must run (and explain itself) on a Node too old for TypeScript.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `uvtrace needs Node.js >= 22.12 (Node 24 LTS recommended); this is ${process.version}.\n` +
      'Install it from the npm registry: npm i -g --prefix /opt/node24 node@24 && export PATH=/opt/node24/bin:$PATH',
  );
  process.exit(1);
}
