import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  createContextManager,
  type Message,
  prepareModelMessages,
  referenceCounter,
  type Summarizer,
  sumMessageTokens,
  summarizeToolResults,
} from '../../src/index.js';
import type { SummaryRequest } from '../../src/summarizing/index.js';
import {
  arbitraryConversation,
  deepFreeze,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

/** Long enough that most conversations archive a batch on the first call. */
const conversations = arbitraryConversation({ maxLength: 90 });
const policies = fc.record({ cutoff: fc.integer({ min: 0, max: 6 }), batch: fc.integer({ min: 0, max: 4 }) });

/** One tool step: a call of `name` with id `id` and its result `output`. */
const toolStep = (id: string, name: string, step: number, output: string): Message[] => [
  toolCallMessage([{ id, name, arguments: { step } }]),
  toolResultMessage(id, output, { toolName: name }),
];

function recording(): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    requests,
    async summarize(request) {
      requests.push(request);
      return `summary ${requests.length}`;
    },
  };
}

function manager(summarizer: Summarizer, policy: { cutoff: number; batch: number }) {
  return createContextManager({
    summarizer,
    contextWindow: 10_000_000,
    counter: referenceCounter,
    config: {
      toolCallCutoff: policy.cutoff,
      toolSummaryBatch: policy.batch,
      toolOutput: { maxBytes: 10_000_000, maxChars: 10_000_000, maxLines: 1_000_000, largeOutputThreshold: 10_000_000 },
    },
  });
}

test.prop([conversations, policies], { numRuns: 120 })(
  'a first call on a whole history archives, projects and counts as summarizeToolResults, prepareModelMessages and a fresh count do',
  async (conversation, policy) => {
    const input = deepFreeze(structuredClone(conversation));
    const summarizer = recording();
    const prepared = await manager(summarizer, policy).prepare(input);

    const reference = recording();
    const expected = await summarizeToolResults(input, {
      cutoff: policy.cutoff,
      batch: policy.batch,
      strategy: 'llm',
      summarizer: reference,
    });
    expect(prepared.history).toEqual(expected.messages);
    expect(prepared.messages).toEqual(prepareModelMessages(expected.messages));
    expect(summarizer.requests.map(({ messages, text }) => ({ messages, text }))).toEqual(
      reference.requests.map(({ messages, text }) => ({ messages, text })),
    );
    const anchored = input.some((message) => message.role === 'assistant' && message.usage !== undefined);
    if (!anchored) expect(prepared.usage.tokens).toBe(sumMessageTokens(prepared.messages, referenceCounter));
  },
);

test.prop([conversations, policies], { numRuns: 80 })(
  'a first call whose archive is aborted leaves nothing behind: the next call gives what a new manager gives',
  async (conversation, policy) => {
    const input = deepFreeze(structuredClone(conversation));
    const controller = new AbortController();
    const aborting: Summarizer = {
      async summarize(request) {
        if (request.kind !== 'tool_results') return 'summary';
        controller.abort();
        throw new Error('aborted');
      },
    };
    const interrupted = manager(aborting, policy);
    let aborted = false;
    try {
      await interrupted.prepare(input, { signal: controller.signal });
    } catch {
      aborted = true;
    }
    // Until then it sends and counts every result, as a manager that archives nothing does.
    const keeping = createContextManager({
      summarizer: aborting,
      contextWindow: 10_000_000,
      counter: referenceCounter,
      config: {
        toolSummaryStrategy: 'off',
        toolOutput: {
          maxBytes: 10_000_000,
          maxChars: 10_000_000,
          maxLines: 1_000_000,
          largeOutputThreshold: 10_000_000,
        },
      },
    });
    if (aborted) {
      const unarchived = await keeping.prepare(input);
      expect(interrupted.stats(input).usage).toEqual(unarchived.usage);
    }
    // The same manager, now with a summarizer that answers, against a new one.
    (aborting as { summarize: Summarizer['summarize'] }).summarize = async () => 'summary';
    const again = await interrupted.prepare(input);
    const fresh = await manager({ summarize: async () => 'summary' }, policy).prepare(input);
    expect(again.history).toEqual(fresh.history);
    expect(again.messages).toEqual(fresh.messages);
    expect(again.usage).toEqual(fresh.usage);
    if (!aborted) expect(controller.signal.aborted).toBe(false);
  },
);

test('a first call on a history of many tool steps archives the oldest in one batch and counts what it sends', async () => {
  const history: Message[] = [userMessage('run the suite step by step')];
  for (let step = 0; step < 300; step++) history.push(...toolStep(`call_${step % 3}`, 'bash', step, `ok ${step}`));
  const summarizer = recording();
  const prepared = await manager(summarizer, { cutoff: 10, batch: 30 }).prepare(history);
  expect(summarizer.requests.length).toBe(1);
  expect(prepared.history.filter((message) => message.meta?.kind === 'tool_result_archived').length).toBe(290);
  expect(prepared.messages).toEqual(prepareModelMessages(prepared.history));
  expect(prepared.usage.tokens).toBe(sumMessageTokens(prepared.messages, referenceCounter));
});

test('a first call whose projection is rebuilt midway (a raw id equal to a renamed one) still archives early what it hides', async () => {
  const history: Message[] = [userMessage('go')];
  const ids = [
    'call_0',
    'call_0',
    'call_0',
    'call_0_2',
    'call_0_3',
    ...Array.from({ length: 60 }, (_, step) => `c${step}`),
  ];
  history.push(...ids.flatMap((id, step) => toolStep(id, 'read', step, `line ${step}`)));
  const summarizer = recording();
  const prepared = await manager(summarizer, { cutoff: 4, batch: 2 }).prepare(history);
  const reference = recording();
  const expected = await summarizeToolResults(history, { cutoff: 4, batch: 2, strategy: 'llm', summarizer: reference });
  expect(prepared.history).toEqual(expected.messages);
  expect(prepared.messages).toEqual(prepareModelMessages(expected.messages));
  expect(summarizer.requests.map((request) => request.text)).toEqual(reference.requests.map((request) => request.text));
  expect(prepared.usage.tokens).toBe(sumMessageTokens(prepared.messages, referenceCounter));
});
