/**
 * The main demo: a long coding-agent conversation (compiler errors, test failures, a 3,000-line
 * directory listing, a large JSON payload) goes through the three steps of ctxkit's pure core:
 * tool-output truncation, tool-result summarization and compaction, with the heuristic summarizer
 * so that no model is needed. It prints the tokens before and after each step.
 *
 * Run: npm run demo
 */
import {
  approximateCounter,
  compact,
  heuristicSummarizer,
  type Message,
  prepareModelMessages,
  processToolOutput,
  resolveConfig,
  sumMessageTokens,
  summarizeToolResults,
  type ToolResultMessage,
} from 'ctxkit';
import { createFileSpillStore } from 'ctxkit/node';
import { createCodingSession } from './fixtures/coding-session.js';

const counter = approximateCounter;
const config = resolveConfig({ contextWindow: 64_000, reserveTokens: 8_000, keepRecentTokens: 6_000 });
const tokens = (messages: readonly Message[]) => sumMessageTokens(messages, counter).toLocaleString('en-US');
const heading = (title: string) => console.log(`\n━━ ${title} ${'━'.repeat(Math.max(0, 70 - title.length))}`);

const original = createCodingSession({ turns: 14 });
heading('A long coding-agent session');
console.log(`${original.length} messages, ${tokens(original)} tokens (approximate counter)`);

// 1. Tool output over the reference limits (2,000 lines, 50 KiB, 200 Ki code points) is cut, and
//    output over the spill threshold is saved in full first, with its path and SHA-256 in the notice.
heading('1. Truncate oversized tool output');
const spillStore = createFileSpillStore();
const truncated: Message[] = [];
for (const message of original) {
  if (message.role !== 'toolResult') {
    truncated.push(message);
    continue;
  }
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const output = await processToolOutput(text, {
    limits: config.toolOutput,
    spillStore,
    toolName: message.toolName,
    toolCallId: message.toolCallId,
  });
  if (output.truncated) {
    const where = output.spilled ? `, full output saved (${output.spilled.bytes.toLocaleString('en-US')} bytes)` : '';
    console.log(
      `  ${message.toolName} ${message.toolCallId}: ${text.length.toLocaleString('en-US')} → ${output.text.length.toLocaleString('en-US')} characters${where}`,
    );
  }
  truncated.push({ ...message, content: [{ type: 'text', text: output.text }] } satisfies ToolResultMessage);
}
console.log(`tokens: ${tokens(original)} → ${tokens(truncated)}`);

// 2. More than toolCallCutoff (10) visible tool results: the oldest are archived (hidden from the
//    model, still in the list) behind one summary message.
heading('2. Summarize old tool results');
const summarized = await summarizeToolResults(truncated, { config, strategy: 'heuristic' });
console.log(
  `archived ${summarized.archived.length} tool results; tokens: ${tokens(truncated)} → ${tokens(summarized.messages)}`,
);
console.log(`summary (first lines):\n${indent(summarized.summary ?? '', 6)}`);

// 3. Compaction: the recent tail is kept verbatim, the rest becomes a structured checkpoint.
heading('3. Compact');
const result = await compact(summarized.messages, { summarizer: heuristicSummarizer, config, counter });
console.log(
  `summarized ${result.summarizedCount} messages, kept ${summarized.messages.length - result.firstKeptIndex} from index ${result.firstKeptIndex}`,
);
console.log(`tokens: ${result.tokensBefore.toLocaleString('en-US')} → ${result.tokensAfter.toLocaleString('en-US')}`);

heading('The rebuilt context (what the model receives)');
const sent = prepareModelMessages(result.messages);
console.log(`${sent.length} messages, ${tokens(sent)} tokens`);
for (const message of sent.slice(0, 6))
  console.log(`  [${message.role}${message.meta?.kind ? ` · ${message.meta.kind}` : ''}] ${preview(message)}`);
console.log(`\ncheckpoint:\n${indent(result.summary, 14)}`);

function preview(message: Message): string {
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.content
          .map((part) =>
            part.type === 'text'
              ? part.text
              : part.type === 'toolCall'
                ? `${part.name}(${JSON.stringify(part.arguments)})`
                : `[${part.type}]`,
          )
          .join(' ');
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 110 ? `${line.slice(0, 107)}…` : line;
}

function indent(text: string, lines: number): string {
  return text
    .split('\n')
    .slice(0, lines)
    .map((line) => `    ${line}`)
    .join('\n');
}
