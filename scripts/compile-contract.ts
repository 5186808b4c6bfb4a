/**
 * Compiles src/shared/integrity/anchor-contract/Anchor.sol with the pinned `solc` package and writes the committed artifact
 * src/shared/integrity/anchor-contract/Anchor.json ({contractName, compiler, abi, bytecode}).
 * `node scripts/compile-contract.ts --check` exits non-zero when the committed artifact is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

const root = path.resolve(import.meta.dirname, '..');
const sourceFile = path.join(root, 'src/shared/integrity/anchor-contract/Anchor.sol');
const artifactFile = path.join(root, 'src/shared/integrity/anchor-contract/Anchor.json');

const input = {
  language: 'Solidity',
  sources: { 'Anchor.sol': { content: readFileSync(sourceFile, 'utf8') } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};
const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
for (const message of output.errors ?? []) console.error(message.formattedMessage);
if (errors.length > 0) process.exit(1);

const contract = output.contracts['Anchor.sol']?.Anchor;
if (!contract) throw new Error('Anchor not in the compiler output');
const artifact = `${JSON.stringify(
  {
    contractName: 'Anchor',
    compiler: `solc ${solc.version()}`,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  },
  null,
  2,
)}\n`;

if (process.argv.includes('--check')) {
  const current = readFileSync(artifactFile, 'utf8');
  if (current !== artifact) {
    console.error('src/shared/integrity/anchor-contract/Anchor.json is stale: run npm run compile:contract');
    process.exit(1);
  }
  console.log('Anchor.json is up to date');
} else {
  writeFileSync(artifactFile, artifact);
  console.log(`wrote ${path.relative(root, artifactFile)}`);
}
