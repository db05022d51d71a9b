// Runs the command line two ways: in this process through `run` (what most tests use: no process
// start, no build), and as a real `ctxkit` process built once per test worker from its TypeScript
// source (what the tests of the binary itself use: arguments, stdout, stderr and exit code as a
// shell sees them).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { run } from '../../src/cli/run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The version the binary reads from the package's package.json. */
export const PACKAGE_VERSION: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

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

/**
 * Runs `ctxkit <args>` in this process: the output and exit code the binary would print and exit
 * with (the binary writes `run`'s result as it is).
 */
export function runCli(args: readonly string[]): Promise<CliRun> {
  return run(args, { version: PACKAGE_VERSION });
}

/**
 * Runs `ctxkit <args>` as a child process of the built binary and resolves with its output and
 * exit code (never rejects on a non-zero exit).
 */
export async function spawnCli(args: readonly string[]): Promise<CliRun> {
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
