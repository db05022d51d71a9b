// The arrays a 1 MB piece grows (~50 MB) are let go at the end of its text: held only weakly, so
// the next long text reuses them if the collector has not taken them, and a collection frees them.
// Run in a child process started with --expose-gc, to measure what a collection leaves.

import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { bundledScript } from '../harness/bundled-script.js';

const run = promisify(execFile);

test('a 1 MB piece leaves no large arrays behind once the collector runs, and counts the same again', {
  timeout: 60_000,
}, async () => {
  const bundle = pathToFileURL(await bundledScript(new URL('../../src/tokenizer/index.ts', import.meta.url))).href;
  const script = `
    const { createTokenizerCounter } = await import(${JSON.stringify(bundle)});
    const counter = createTokenizerCounter();
    // A weakly held array lives to the end of the job that made the reference: collect after it.
    const held = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      gc();
      return process.memoryUsage().arrayBuffers;
    };
    counter.count('warm up');
    const before = await held();
    const counts = [];
    for (const unit of ['\\n', ' ', 'ab']) {
      const text = unit.repeat(1_000_000 / unit.length);
      counts.push(counter.count(text), counter.count(text));
    }
    console.log(JSON.stringify({ grown: (await held()) - before, counts }));
  `;
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', script]);
  const { grown, counts } = JSON.parse(stdout) as { grown: number; counts: number[] };
  // Was ~49 MB (the piece's bytes, merge arrays and queues kept until the next short text).
  expect(grown).toBeLessThan(8_000_000);
  // Each text counted twice in a row (the second reusing the arrays): the same count.
  for (let index = 0; index < counts.length; index += 2) expect(counts[index + 1]).toBe(counts[index]);
});
