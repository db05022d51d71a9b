// Runs the command line as a child process, built once per test worker from its TypeScript source.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const root = fileURLToPath(new URL('../..', import.meta.url));

let built: Promise<string> | undefined;

/**
 * Bundles `src/cli/main.ts` (dependencies stay external) into a scratch folder under
 * `node_modules/.cache`, where the bundle still resolves the repository's packages.
 */
function buildCli(): Promise<string> {
  built ??= (async () => {
    const outDir = join(root, 'node_modules', '.cache', 'ctxkit-cli-test', String(process.pid));
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    await build({
      config: false,
      entry: { main: join(root, 'src/cli/main.ts') },
      outDir,
      format: ['esm'],
      platform: 'node',
      target: 'node20',
      dts: false,
      silent: true,
      clean: false,
      external: ['zod', 'gpt-tokenizer', 'better-sqlite3', 'fast-check', 'pg'],
    });
    return join(outDir, 'main.js');
  })();
  return built;
}

export interface CliRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs `ctxkit <args>` and resolves with its output and exit code (never rejects on a non-zero exit). */
export async function runCli(args: readonly string[]): Promise<CliRun> {
  const main = await buildCli();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [main, ...args],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ stdout, stderr, exitCode: error ? (error.code as number) : 0 });
      },
    );
  });
}
