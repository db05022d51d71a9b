// Records a large session through the package entries (imported from their source, so that the
// bench, which runs outside vitest, can use it too), for the report's browser test and bench:
// turns of a user message, a tool call and a large tool result. The tool output varies by turn,
// so no two messages are equal.
import { join } from 'node:path';
import { createJsonlStore } from '../../src/node/index.js';
import { toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

/** Lines of a compiler log, about 100 characters each, numbered by turn and line. */
function toolOutput(turn: number, lines: number): string {
  const out: string[] = [];
  for (let line = 0; line < lines; line++) {
    out.push(
      `src/module-${turn % 97}/file-${line % 13}.ts(${line + 1},${turn % 80}): error TS2345: Argument of type 'Node${line}' is not assignable (turn ${turn}).`,
    );
  }
  return out.join('\n');
}

/**
 * Records a session of about `megabytes` MB of message text in `directory` and returns its file.
 *
 * @param directory - Where the JSONL store writes.
 * @param megabytes - The approximate size of the messages' text.
 */
export async function recordLargeSession(directory: string, megabytes: number): Promise<string> {
  const store = createJsonlStore({ directory });
  await store.createSession({ id: 'large', name: `${megabytes} MB session` });
  const perTurn = 20_000;
  const turns = Math.ceil((megabytes * 1_000_000) / perTurn);
  for (let turn = 1; turn <= turns; turn++) {
    const id = `call_${turn}`;
    await store.appendEntry('large', {
      type: 'message',
      message: userMessage(`Turn ${turn}: fix the next type error.`),
    });
    await store.appendEntry('large', {
      type: 'message',
      message: toolCallMessage([{ id, name: 'typecheck', arguments: { turn } }]),
    });
    await store.appendEntry('large', {
      type: 'message',
      message: toolResultMessage(id, toolOutput(turn, perTurn / 125), { toolName: 'typecheck', isError: true }),
    });
  }
  await store.close();
  return join(directory, 'large.jsonl');
}
