import { fc, test as property } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fromAnthropicMessage } from '../../src/anthropic/index.js';
import {
  type AssistantMessage,
  dropNativeCompactions,
  type Message,
  type ModelTarget,
  madeBy,
  nativeCompactionOf,
  nativeSummaryMessage,
  resolveNativeCompactions,
} from '../../src/index.js';
import { fromOpenAIResponse } from '../../src/openai/index.js';
import { arbitraryConversation, checkToolPairing } from '../../src/testing/index.js';

const ANTHROPIC: ModelTarget = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' };
const OPENAI: ModelTarget = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };

/** A Messages API response that compacted first, as the API (and the loopback) returns it. */
const anthropicResponse = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: ANTHROPIC.model,
  content: [
    { type: 'compaction', content: '## Goal\n- FACT-1 kept', encrypted_content: 'Eqabc.def' },
    { type: 'text', text: 'Continuing.' },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 900, output_tokens: 20 },
};

/** A Responses output that compacted first. */
const openaiResponse = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: OPENAI.model,
  output: [
    { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAAopaque.mac' },
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Continuing.', annotations: [] }],
    },
  ],
  usage: { input_tokens: 900, output_tokens: 20, total_tokens: 920 },
};

const carrierOf = (response: 'anthropic' | 'openai'): AssistantMessage =>
  response === 'anthropic'
    ? fromAnthropicMessage(anthropicResponse as never).message
    : fromOpenAIResponse(openaiResponse as never).message;

describe('nativeCompactionOf', () => {
  it('reads an Anthropic block with its readable content as the portable summary', () => {
    const native = nativeCompactionOf(carrierOf('anthropic'))!;
    expect(native).toMatchObject({ provider: 'anthropic', api: 'anthropic-messages', model: ANTHROPIC.model });
    expect(native.payload).toEqual(anthropicResponse.content[0]);
    expect(native.summary).toBe('## Goal\n- FACT-1 kept');
  });

  it('reads an OpenAI item as opaque: no portable summary until one is written', () => {
    const native = nativeCompactionOf(carrierOf('openai'))!;
    expect(native).toMatchObject({ provider: 'openai', api: 'openai-responses', model: OPENAI.model });
    expect(native.payload).toEqual(openaiResponse.output[0]);
    expect(native.summary).toBeUndefined();
  });

  it('finds nothing in other messages', () => {
    expect(nativeCompactionOf({ role: 'user', content: 'hi' })).toBeUndefined();
    expect(
      nativeCompactionOf({ role: 'assistant', content: [{ type: 'text', text: '[compaction]' }] }),
    ).toBeUndefined();
  });
});

describe('resolveNativeCompactions', () => {
  const history = (response: 'anthropic' | 'openai'): Message[] => {
    const carrier = carrierOf(response);
    return [nativeSummaryMessage(nativeCompactionOf(carrier)!), carrier, { role: 'user', content: 'next' }];
  };

  it('sends the payload to its maker only, once, without the copy inside the turn', () => {
    const resolved = resolveNativeCompactions(history('anthropic'), { target: ANTHROPIC });
    expect(resolved.native).toBe(1);
    const text = JSON.stringify(resolved.messages);
    expect(text.split('"encrypted_content"').length - 1).toBe(1);
    expect(resolved.messages[0]!.role).toBe('assistant');
    expect(resolved.messages[1]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Continuing.' }] });
  });

  it('sends the portable summary to another provider, another model of the maker, or no target', () => {
    for (const target of [OPENAI, { ...ANTHROPIC, model: 'claude-opus-4-6' }, undefined]) {
      const resolved = resolveNativeCompactions(history('anthropic'), target ? { target } : {});
      expect(resolved.native).toBe(0);
      expect(JSON.stringify(resolved.messages)).not.toContain('encrypted_content');
      expect(resolved.messages[0]).toMatchObject({ role: 'user', meta: { kind: 'compaction_summary' } });
      expect(resolved.messages[0]!.content).toContain('FACT-1 kept');
      expect(resolved.unsummarized).toEqual([]);
    }
  });

  it('reports an opaque item going elsewhere without a portable summary', () => {
    const resolved = resolveNativeCompactions(history('openai'), { target: ANTHROPIC });
    expect(resolved.unsummarized).toEqual([0]);
    expect(JSON.stringify(resolved.messages)).not.toContain('gAAAA');
  });

  it('sends a compaction no summary message took in only to its maker; another gets readable content or nothing', () => {
    const turn = carrierOf('anthropic');
    expect(resolveNativeCompactions([turn], { target: ANTHROPIC }).native).toBe(1);
    const elsewhere = resolveNativeCompactions([turn], { target: OPENAI }).messages;
    expect(JSON.stringify(elsewhere)).not.toContain('encrypted_content');
    expect(JSON.stringify(elsewhere)).toContain('FACT-1 kept');
    const opaque = resolveNativeCompactions([carrierOf('openai')], { target: ANTHROPIC }).messages;
    expect(JSON.stringify(opaque)).not.toContain('gAAAA');
  });

  it('dropNativeCompactions leaves no payload anywhere', () => {
    const dropped = dropNativeCompactions(history('anthropic'));
    expect(JSON.stringify(dropped)).not.toContain('encrypted_content');
    expect(dropped.every((message) => message.meta?.native === undefined)).toBe(true);
  });

  it('madeBy compares provider, API and model', () => {
    const native = nativeCompactionOf(carrierOf('openai'))!;
    expect(madeBy(native, OPENAI)).toBe(true);
    expect(madeBy(native, { ...OPENAI, api: 'openai-chat' })).toBe(false);
    expect(madeBy(native, undefined)).toBe(false);
  });

  property.prop([arbitraryConversation(), fc.boolean(), fc.constantFrom(ANTHROPIC, OPENAI, undefined)])(
    'any conversation after a native compaction: a payload only to its maker, pairing kept, input unchanged',
    (conversation, anthropic, target) => {
      const carrier = carrierOf(anthropic ? 'anthropic' : 'openai');
      const input = [nativeSummaryMessage(nativeCompactionOf(carrier)!), carrier, ...conversation];
      const before = JSON.stringify(input);
      const resolved = resolveNativeCompactions(input, target ? { target } : {});
      expect(JSON.stringify(input)).toBe(before);
      const maker = anthropic ? ANTHROPIC : OPENAI;
      const payloads = JSON.stringify(resolved.messages).split('"encrypted_content"').length - 1;
      expect(payloads).toBe(target === maker ? 1 : 0);
      expect(checkToolPairing(resolved.messages)).toEqual(checkToolPairing(input));
    },
  );
});
