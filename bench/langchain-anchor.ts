/**
 * The anchor of the per-call numbers: LangChain's `trimMessages` (`@langchain/core`, a dev
 * dependency of the bench only) over the same history, with the same chars/4 counter.
 */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { type Message, referenceCounter } from '../src/index.js';

/** The same history as LangChain messages (what a LangChain host holds; converted once, not per call). */
export function toLangChain(messages: readonly Message[]): BaseMessage[] {
  return messages.map(toLangChainMessage);
}

export function toLangChainMessage(message: Message): BaseMessage {
  switch (message.role) {
    case 'user':
      return new HumanMessage(
        typeof message.content === 'string'
          ? message.content
          : message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      );
    case 'assistant': {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const toolCalls = message.content.flatMap((part) =>
        part.type === 'toolCall'
          ? [{ id: part.id, name: part.name, args: part.arguments, type: 'tool_call' as const }]
          : [],
      );
      return new AIMessage({ content: text, tool_calls: toolCalls });
    }
    case 'toolResult':
      return new ToolMessage({
        content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
        tool_call_id: message.toolCallId,
        name: message.toolName,
      });
  }
}

/** chars/4 over what the model reads (text, tool-call names and JSON arguments), as ctxkit's reference counter. */
export function countLangChainTokens(messages: readonly BaseMessage[]): number {
  let total = 0;
  for (const message of messages) {
    let text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
    if (message instanceof AIMessage)
      for (const call of message.tool_calls ?? []) text += call.name + JSON.stringify(call.args);
    total += referenceCounter.count(text);
  }
  return total;
}

/** One call of the anchor: keep the newest messages within `maxTokens`, starting on a human message, system prompt kept. */
export function trimWithLangChain(system: SystemMessage, history: readonly BaseMessage[], maxTokens: number) {
  return trimMessages([system, ...history], {
    maxTokens,
    strategy: 'last',
    tokenCounter: countLangChainTokens,
    includeSystem: true,
    startOn: 'human',
  });
}

export { SystemMessage };
