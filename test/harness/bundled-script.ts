// Child processes for the tests that need real separate processes (many writers, a lock held by a
// killed client): their TypeScript bundled once per test worker into one plain ES module, so a
// process starts in a fifth of the CPU that `node --import tsx` takes (it transpiles the sources
// again in every process). Packages stay external, and the bundle is written under
// `node_modules/.cache`, where it still resolves the repository's packages.

import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundles = new Map<string, Promise<string>>();

/**
 * Bundles `entry` (a TypeScript file of the repository) once per test worker and returns the bundle's
 * path, to run as `node <bundle> …args`.
 *
 * @param entry - The script, e.g. `new URL('./worker.ts', import.meta.url)`.
 * @returns The path of the bundled ES module.
 */
export function bundledScript(entry: URL): Promise<string> {
  const source = fileURLToPath(entry);
  let bundled = bundles.get(source);
  if (!bundled) {
    bundled = (async () => {
      const outDir = join(root, 'node_modules', '.cache', 'ctxkit-test-scripts', String(process.pid));
      mkdirSync(outDir, { recursive: true });
      process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
      const outfile = join(outDir, `${bundles.size}-${source.split('/').pop()!.replace(/\.ts$/, '.mjs')}`);
      await build({
        entryPoints: [source],
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile,
        logLevel: 'silent',
      });
      return outfile;
    })();
    bundles.set(source, bundled);
  }
  return bundled;
}
