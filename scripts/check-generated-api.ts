// Generates the API types from the contract and checks that the committed copy is current.
//
//   node scripts/check-generated-api.ts           exit 1 when src/shared/api/schema.ts is stale
//   node scripts/check-generated-api.ts --write   (re)write src/shared/api/schema.ts
//
// Generation: openapi-typescript (programmatic API) on openapi/openapi.yaml, with one transform
// (`format: binary` → Blob, so multipart file fields and PDF downloads are typed as what the browser
// sends and receives), then Biome's formatter with the project settings. biome.json excludes schema.ts
// from lint/format (so `biome format --write` refuses it), so the text goes through Biome's stdin mode
// under a sibling path that is not excluded; that path only selects the settings, nothing is written there.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import ts from 'typescript';

const root = dirname(import.meta.dirname);
const contractPath = join(root, 'openapi', 'openapi.yaml');
const schemaPath = join(root, 'src', 'shared', 'api', 'schema.ts');
const schemaRel = relative(root, schemaPath);
const formatAs = join('src', 'shared', 'api', 'schema.generated.ts');
const biomeBin = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

async function generate(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(contractPath), {
    silent: true,
    transform(schemaObject) {
      if ('format' in schemaObject && schemaObject.format === 'binary') {
        return ts.factory.createTypeReferenceNode('Blob');
      }
      return undefined;
    },
  });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

function format(source: string): string {
  const result = spawnSync(process.execPath, [biomeBin, 'format', `--stdin-file-path=${formatAs}`], {
    cwd: root,
    input: source,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0 || !result.stdout || result.stdout === source) {
    throw new Error(`biome format failed or did not format (exit ${result.status}): ${result.stderr}`);
  }
  return result.stdout;
}

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) {
      return `first difference at line ${i + 1}:\n  committed: ${JSON.stringify(left[i] ?? '<end of file>')}\n  expected:  ${JSON.stringify(right[i] ?? '<end of file>')}`;
    }
  }
  return 'files differ';
}

async function main(): Promise<void> {
  const expected = format(await generate());
  if (process.argv.includes('--write')) {
    await writeFile(schemaPath, expected);
    console.log(`wrote ${schemaRel}`);
    return;
  }
  let committed: string;
  try {
    committed = await readFile(schemaPath, 'utf8');
  } catch {
    console.error(`${schemaRel} is missing. Run: node scripts/check-generated-api.ts --write`);
    process.exit(1);
  }
  if (committed !== expected) {
    console.error(
      `${schemaRel} is stale: it does not match openapi/openapi.yaml.\n` +
        `Regenerate it with: node scripts/check-generated-api.ts --write\n` +
        firstDifference(committed, expected),
    );
    process.exit(1);
  }
  console.log(`${schemaRel} is up to date with openapi/openapi.yaml`);
}

await main();
