// `ctxkit inspect` reports the manager's calibration: a session whose stored replies carry the
// provider's usage, counted 1.6× the estimate, is inspected with the ratio learned from it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approximateCounter, estimateContextTokens, type Message, sumMessageTokens } from 'ctxkit';
import { createJsonlStore } from 'ctxkit/node';
import { afterAll, expect, test } from 'vitest';
import type { SessionInspection } from '../../src/cli/inspect-session.js';
import { runCli } from './run-cli.js';

const directory = mkdtempSync(join(tmpdir(), 'ctxkit-calibration-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('inspect prints how the provider counts against the estimate, from the usage stored with the replies', async () => {
  const store = createJsonlStore({ directory });
  await store.createSession({ id: 'drift' });
  const history: Message[] = [];
  for (let turn = 0; turn < 4; turn++) {
    const rows = Array.from({ length: 120 }, (_, row) => `{"turn":${turn},"row":${row},"ok":false}`);
    const user: Message = { role: 'user', content: `Turn ${turn}: why do these fail?\n${rows.join('\n')}` };
    history.push(user);
    await store.appendEntry('drift', { type: 'message', message: user });
    // The provider's count of the request: 1.6× the estimate of the manager's default counter.
    const counter = approximateCounter;
    const input = Math.ceil(1.6 * (sumMessageTokens(history, counter) + estimateContextTokens([], { counter })));
    const reply: Message = {
      role: 'assistant',
      content: [{ type: 'text', text: 'They expect ok.' }],
      usage: { input, output: 8 },
    };
    history.push(reply);
    await store.appendEntry('drift', { type: 'message', message: reply });
  }
  const file = join(directory, 'drift.jsonl');
  const inspection = JSON.parse(
    (await runCli(['inspect', file, '--json', '--window', '200000'])).stdout,
  ) as SessionInspection;
  expect(inspection.context.calibration.samples).toBeGreaterThan(0);
  expect(inspection.context.calibration.ratio).toBeCloseTo(1.6, 2);
  const text = await runCli(['inspect', file, '--window', '200000']);
  expect(text.exitCode).toBe(0);
  expect(text.stdout).toMatch(/Provider counts 1\.60× the estimate \(from \d+ usage reports\)/);
});
