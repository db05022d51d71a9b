// The manager's calibration to a provider's tokenizer, against a scripted provider that counts a
// request at `drift` × ctxkit's estimate of it (system prompt included) and reports it through
// `recordUsage`, `usage` on the assistant message, or both. Two managers run the same session, one
// calibrated (the default) and one with `calibrate: false`:
// - on the same history the calibrated manager never measures less, so it never sends more;
// - with a provider that counts at most the estimate, the two send exactly the same requests,
//   compactions included;
// - the ratio stays in [1, 4] and, past the first report of 2,048 tokens, is the provider's drift.

import { fc, test } from '@fast-check/vitest';
import {
  createContextManager,
  estimateContextTokens,
  heuristicSummarizer,
  type Message,
  referenceCounter,
  sumMessageTokens,
} from 'ctxkit';
import { expect } from 'vitest';

const SYSTEM = 'You are a careful coding agent.';

const step = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), chars: fc.integer({ min: 1, max: 4_000 }) }),
  fc.record({
    kind: fc.constant('tool' as const),
    chars: fc.integer({ min: 10, max: 30_000 }),
    json: fc.boolean(),
  }),
);

/** A tool output of `chars` characters: JSON-like or prose, different at every `seed`. */
function output(chars: number, json: boolean, seed: number): string {
  const unit = json ? `{"id":${seed},"path":"src/file${seed}.ts","ok":false},` : `line ${seed}: the test failed here. `;
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

/** One reported usage per answer: how the host passes it. */
type Report = 'record' | 'message' | 'both';

async function run(
  steps: readonly { kind: 'user' | 'tool'; chars: number; json?: boolean }[],
  options: { drift: number; report: Report; calibrate: boolean; autoCompact: boolean; window: number },
) {
  const manager = createContextManager({
    summarizer: heuristicSummarizer,
    contextWindow: options.window,
    counter: referenceCounter,
    systemPrompt: SYSTEM,
    calibrate: options.calibrate,
    // Threshold-only: archiving is decided by counts, so both managers keep the same history.
    costAware: false,
    config: {
      autoCompact: options.autoCompact,
      // Old results archived early (what the provider counted shrinks by what archiving removed),
      // or late enough for the context to reach the compaction threshold.
      toolCallCutoff: options.autoCompact ? 20 : 2,
      toolSummaryBatch: 2,
      toolSummaryStrategy: 'heuristic',
      reserveTokens: Math.floor(options.window / 8),
      keepRecentTokens: Math.floor(options.window / 5),
      toolOutput: { maxBytes: 64 * 1024, maxLines: 100_000 },
    },
  });
  const extras = estimateContextTokens([], { counter: referenceCounter, systemPrompt: SYSTEM });
  let history: Message[] = [];
  const sends: { messages: Message[]; tokens: number }[] = [];
  for (const [index, item] of steps.entries()) {
    if (item.kind === 'user') history.push({ role: 'user', content: output(item.chars, false, index) });
    else {
      const id = `call_${index}`;
      history.push(
        { role: 'assistant', content: [{ type: 'toolCall', id, name: 'run', arguments: {} }] },
        {
          role: 'toolResult',
          toolCallId: id,
          toolName: 'run',
          content: [{ type: 'text', text: output(item.chars, item.json ?? false, index) }],
        },
      );
    }
    const prepared = await manager.prepare(history);
    sends.push({ messages: prepared.messages, tokens: prepared.usage.tokens });
    // The provider's count of the request, and its answer.
    const input = Math.ceil(options.drift * (sumMessageTokens(prepared.messages, referenceCounter) + extras));
    const usage = { input, output: 20 };
    if (options.report !== 'message') manager.recordUsage(usage);
    const answer: Message = {
      role: 'assistant',
      content: [{ type: 'text', text: `Answer ${index}.` }],
      ...(options.report === 'record' ? {} : { usage }),
    };
    history = [...prepared.history, answer];
  }
  return { sends, calibration: manager.stats(history).calibration };
}

const report = fc.constantFrom<Report>('record', 'message', 'both');

/** The same steps through a calibrated manager and an uncalibrated one, under the same options. */
async function runBoth(steps: Parameters<typeof run>[0], options: Omit<Parameters<typeof run>[1], 'calibrate'>) {
  return {
    calibrated: await run(steps, { ...options, calibrate: true }),
    plain: await run(steps, { ...options, calibrate: false }),
  };
}

test.prop([fc.array(step, { minLength: 1, maxLength: 14 }), fc.double({ min: 0.3, max: 6, noNaN: true }), report], {
  numRuns: 60,
})(
  'on the same history the calibrated manager never measures less than the uncalibrated one',
  async (steps, drift, how) => {
    const { calibrated, plain } = await runBoth(steps, { drift, report: how, autoCompact: false, window: 2_000_000 });
    for (const [index, send] of calibrated.sends.entries()) {
      const other = plain.sends[index]!;
      expect(send.messages).toEqual(other.messages);
      expect(send.tokens).toBeGreaterThanOrEqual(other.tokens);
      if (drift <= 1) expect(send.tokens).toBe(other.tokens);
    }
    const { ratio, samples } = calibrated.calibration;
    expect(ratio).toBeGreaterThanOrEqual(1);
    expect(ratio).toBeLessThanOrEqual(4);
    expect(plain.calibration).toEqual({ ratio: 1, samples: 0 });
    if (drift <= 1) expect(ratio).toBe(1);
    // The provider's drift, as far as the range goes (its count is rounded up: a little above).
    else if (samples > 0) expect(ratio).toBeCloseTo(Math.min(4, drift), 1);
  },
);

test.prop([fc.array(step, { minLength: 1, maxLength: 14 }), fc.double({ min: 0.3, max: 1, noNaN: true }), report], {
  numRuns: 40,
})(
  'with a provider that counts at most the estimate, calibration changes nothing, compactions included',
  async (steps, drift, how) => {
    const { calibrated, plain } = await runBoth(steps, { drift, report: how, autoCompact: true, window: 16_000 });
    expect(calibrated.sends).toEqual(plain.sends);
    expect(calibrated.calibration.ratio).toBe(1);
  },
);
