// The `ctxkit` binary: runs the command line on the process's arguments and prints what it says.
import { readFile } from 'node:fs/promises';
import { run } from './run.js';

/** The version in the package's own package.json: the nearest one named ctxkit above this file. */
async function readVersion(): Promise<string> {
  let directory = new URL('.', import.meta.url);
  for (let level = 0; level < 6; level++) {
    try {
      const text = await readFile(new URL('package.json', directory), 'utf8');
      const { name, version } = JSON.parse(text) as { name?: string; version?: string };
      if (name === 'ctxkit' && version) return version;
    } catch {
      // No package.json here: look one folder up.
    }
    directory = new URL('..', directory);
  }
  return 'unknown';
}

const result = await run(process.argv.slice(2), { version: await readVersion() });
if (result.stdout) process.stdout.write(result.stdout);
if (result.stderr) process.stderr.write(result.stderr);
process.exitCode = result.exitCode;
