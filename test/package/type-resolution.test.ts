// How TypeScript finds each entry's types from a consumer's project, under every module resolution a
// user of the SDKs may have: `nodenext`/`node16` and `bundler` read `exports`; the classic
// `"moduleResolution": "node"` (node10, still the default of many CommonJS projects, and one that
// `openai`, `@anthropic-ai/sdk`, `ai`, `langchain` and `@openai/agents` all resolve under) ignores
// `exports` and reads `types` and `typesVersions`. Each `import … from 'ctxkit/<entry>'` must land
// on the declaration file `exports` names for it. TypeScript's own resolver runs against this
// package.json, with the build's declaration files taken as present.
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };

const root = resolve(import.meta.dirname, '../..');
const consumer = '/consumer';
const installed = `${consumer}/node_modules/ctxkit`;

type Conditions = { types: string; default: string };
const exportsMap = packageJson.exports as Record<string, string | { import: Conditions; require: Conditions }>;
const entries = Object.entries(exportsMap).flatMap(([key, target]) =>
  typeof target === 'string' ? [] : [{ specifier: key === '.' ? 'ctxkit' : `ctxkit/${key.slice(2)}`, target }],
);
/** The declaration files the build writes: the ones `exports` names. */
const declarations = new Set(
  entries.flatMap(({ target }) => [target.import.types, target.require.types].map((path) => join(installed, path))),
);

/** A file system with the package installed under the consumer's node_modules. */
const host: ts.ModuleResolutionHost = {
  fileExists: (path) =>
    path === `${installed}/package.json` || declarations.has(path) || path === `${consumer}/package.json`,
  readFile: (path) =>
    path === `${installed}/package.json`
      ? ts.sys.readFile(join(root, 'package.json'))
      : path === `${consumer}/package.json`
        ? JSON.stringify({ name: 'consumer', type: path.includes('esm') ? 'module' : 'commonjs' })
        : undefined,
  directoryExists: (path) => path === consumer || path.startsWith(`${consumer}/node_modules`),
  realpath: (path) => path,
  getCurrentDirectory: () => consumer,
};

function resolveFrom(specifier: string, options: ts.CompilerOptions, mode?: ts.ResolutionMode): string | undefined {
  const resolved = ts.resolveModuleName(
    specifier,
    `${consumer}/src/index.ts`,
    options,
    host,
    undefined,
    undefined,
    mode,
  );
  return resolved.resolvedModule?.resolvedFileName;
}

describe("each entry's types resolve for a consumer", () => {
  it.each(entries)('$specifier under node10 (CommonJS, "moduleResolution": "node")', ({ specifier, target }) => {
    const options = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
    expect(resolveFrom(specifier, options)).toBe(join(installed, target.require.types));
  });

  it.each(entries)('$specifier under node16 (require and import) and bundler', ({ specifier, target }) => {
    const node16 = { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 };
    expect(resolveFrom(specifier, node16, ts.ModuleKind.CommonJS)).toBe(join(installed, target.require.types));
    expect(resolveFrom(specifier, node16, ts.ModuleKind.ESNext)).toBe(join(installed, target.import.types));
    const bundler = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
    expect(resolveFrom(specifier, bundler)).toBe(join(installed, target.import.types));
  });

  it('typesVersions names, for every subpath and nothing else, the declarations exports names for require', () => {
    const mapped = (packageJson as { typesVersions: { '*': Record<string, string[]> } }).typesVersions['*'];
    const subpaths = entries.filter(({ specifier }) => specifier !== 'ctxkit');
    expect(Object.keys(mapped).sort()).toEqual(
      subpaths.map(({ specifier }) => specifier.slice('ctxkit/'.length)).sort(),
    );
    for (const { specifier, target } of subpaths) {
      expect(mapped[specifier.slice('ctxkit/'.length)]).toEqual([target.require.types]);
    }
  });
});
