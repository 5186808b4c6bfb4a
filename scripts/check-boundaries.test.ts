import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findViolations, importsOf, violation } from './check-boundaries.ts';

/** The verdict on one import written in `from`. */
const verdict = (from: string, specifier: string) => {
  const [edge] = importsOf(from, `import { x } from '${specifier}';`);
  if (!edge) throw new Error('no import parsed');
  return violation(edge);
};

describe('check-boundaries', () => {
  it('reads static imports, re-exports, type imports and dynamic imports', () => {
    const text = [
      "import a from 'fastify';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "const d = await import('./d.ts');",
    ].join('\n');
    expect(importsOf('src/server/x/y.ts', text)).toEqual([
      { from: 'src/server/x/y.ts', specifier: 'fastify', target: undefined },
      { from: 'src/server/x/y.ts', specifier: '../b.ts', target: 'src/server/b.ts' },
      { from: 'src/server/x/y.ts', specifier: './c.ts', target: 'src/server/x/c.ts' },
      { from: 'src/server/x/y.ts', specifier: './d.ts', target: 'src/server/x/d.ts' },
    ]);
  });

  it('resolves the package import aliases to the files they name', () => {
    const text = "import { x } from '#shared/access/index.ts';\nimport { y } from '#client/lib/intl.ts';";
    expect(importsOf('src/server/app.ts', text).map((edge) => edge.target)).toEqual([
      'src/shared/access/index.ts',
      'src/client/lib/intl.ts',
    ]);
    expect(verdict('src/server/app.ts', '#client/main.tsx')).toMatch(
      /src\/server may not import src\/client/,
    );
    expect(verdict('src/server/modules/users/routes.ts', '#server/modules/customers/repository.ts')).toMatch(
      /server\/modules\/users may import server\/modules\/customers only through its public surface/,
    );
    expect(
      verdict('src/server/modules/users/routes.ts', '#server/modules/customers/index.ts'),
    ).toBeUndefined();
    expect(verdict('src/client/lib/api.ts', '#shared/api/index.ts')).toBeUndefined();
  });

  it('keeps src/shared isomorphic: no server, client or node: imports (tests may read from disk)', () => {
    expect(verdict('src/shared/integrity/leaf.ts', 'node:crypto')).toMatch(/no node: imports/);
    expect(verdict('src/shared/access/index.ts', '../../server/security/guards.ts')).toMatch(
      /src\/shared may not import src\/server/,
    );
    expect(verdict('src/shared/access/index.ts', '../../client/lib/intl.ts')).toMatch(
      /src\/shared may not import src\/client/,
    );
    expect(verdict('src/shared/integrity/leaf.test.ts', 'node:fs')).toBeUndefined();
    expect(verdict('src/shared/integrity/leaf.ts', 'viem')).toBeUndefined();
  });

  it('keeps the server and the client apart, both free to use src/shared', () => {
    expect(verdict('src/server/app.ts', '../client/main.tsx')).toMatch(
      /src\/server may not import src\/client/,
    );
    expect(verdict('src/client/lib/api.ts', '../../server/http/envelope.ts')).toMatch(
      /src\/client may not import src\/server/,
    );
    expect(verdict('src/server/app.ts', '../shared/access/index.ts')).toBeUndefined();
    expect(verdict('src/client/lib/api.ts', '../../shared/api/index.ts')).toBeUndefined();
  });

  it('lets a server module import another only through its index.ts, and its own files freely', () => {
    expect(verdict('src/server/modules/users/routes.ts', '../customers/repository.ts')).toMatch(
      /through its public surface, src\/server\/modules\/customers\/index\.ts/,
    );
    expect(verdict('src/server/modules/users/routes.ts', '../customers/index.ts')).toBeUndefined();
    expect(
      verdict('src/server/modules/users/routes.ts', '#server/modules/customers/index.ts'),
    ).toBeUndefined();
    // An index.ts in a folder of the module is still one of its inner files.
    expect(verdict('src/server/modules/users/routes.ts', '../customers/parts/index.ts')).toMatch(
      /only through its public surface/,
    );
    // The public surface re-exports its own module's files, not another module's.
    expect(verdict('src/server/modules/users/index.ts', '../customers/repository.ts')).toMatch(
      /only through its public surface/,
    );
    expect(verdict('src/server/modules/users/index.ts', './repository.ts')).toBeUndefined();
    expect(verdict('src/server/modules/users/routes.ts', './repository.ts')).toBeUndefined();
    expect(verdict('src/server/modules/users/routes.ts', '../../security/guards.ts')).toBeUndefined();
    expect(verdict('src/server/modules/users/routes.ts', '../../db/lookups.ts')).toBeUndefined();
    // The app assembles the modules: outside any module, so it may import them all.
    expect(verdict('src/server/app.ts', './modules/users/routes.ts')).toBeUndefined();
  });

  it('forbids one client feature importing another, allows components and lib', () => {
    expect(verdict('src/client/features/devices/list.tsx', '../customers/api/queries.ts')).toMatch(
      /client\/features\/devices may not import client\/features\/customers/,
    );
    // A feature has no public surface: an index.ts is refused like any other file.
    expect(verdict('src/client/features/devices/list.tsx', '../customers/index.ts')).toMatch(
      /client\/features\/devices may not import client\/features\/customers/,
    );
    expect(
      verdict('src/client/features/devices/list.tsx', '../../components/paged-table.tsx'),
    ).toBeUndefined();
    expect(verdict('src/client/features/devices/list.tsx', '../../lib/api.ts')).toBeUndefined();
    expect(verdict('src/client/routes/devices.tsx', '../features/devices/list.tsx')).toBeUndefined();
  });

  it('finds nothing in this repository', () => {
    expect(findViolations(path.join(import.meta.dirname, '..'))).toEqual([]);
  });
});
