// fast-check arbitraries of the OpenAI wire formats: valid requests as a host's SDK would build them,
// with the optional fields, spellings and unknown future fields a round trip must keep.

import type { OpenAIChatMessage, OpenAIResponsesItemInput } from 'ctxkit/openai';
import fc from 'fast-check';

type Wire = Record<string, unknown>;

/** The value as it comes off the wire: plain objects, JSON numbers (fast-check's records have no prototype). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const text = fc.string({ maxLength: 12 });
const id = (prefix: string) => fc.stringMatching(/^[A-Za-z0-9]{1,6}$/).map((value) => `${prefix}${value}`);
/** Fields a later API version might add: never a name the converters model. */
const futureFields = fc.option(
  fc.dictionary(fc.constantFrom('x_trace', 'x_meta', 'phase_hint'), fc.jsonValue({ maxDepth: 2 })),
  {
    nil: undefined,
  },
);
const cacheBreakpoint = fc.option(fc.constant({ mode: 'explicit' }), { nil: undefined });

/** An object with the optional fields that are defined. */
function object(fields: Record<string, fc.Arbitrary<unknown>>, extra = futureFields): fc.Arbitrary<Wire> {
  return fc.tuple(fc.record(fields), extra).map(([record, more]) => {
    const result: Wire = { ...more };
    for (const [key, value] of Object.entries(record)) if (value !== undefined) result[key] = value;
    return result;
  });
}
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** JSON arguments as models write them: compact, spaced, re-ordered, or not JSON at all. */
export const argumentsText: fc.Arbitrary<string> = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })).map((value) => JSON.stringify(value)),
  fc
    .dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }))
    .map((value) => JSON.stringify(value, null, 2)),
  fc.constantFrom('', '{', 'null', '[1,2]', '"text"', '{"a":1.0}', '{"a":1,"a":2}', ' {} '),
);

const base64 = fc.base64String({ maxLength: 16 });
const imageUrl = fc.oneof(
  base64.map((data) => `data:image/png;base64,${data}`),
  fc.constantFrom(
    'https://example.com/a.jpg',
    'https://example.com/img?id=3',
    'relative.png',
    'data:image/svg+xml,<svg/>',
  ),
);

// ---------------------------------------------------------------------------------------------
// Chat Completions
// ---------------------------------------------------------------------------------------------

const chatText = object({ type: fc.constant('text'), text, prompt_cache_breakpoint: cacheBreakpoint });
const chatUserPart = fc.oneof(
  chatText,
  object({
    type: fc.constant('image_url'),
    image_url: object(
      { url: imageUrl, detail: optional(fc.constantFrom('auto', 'low', 'high')) },
      fc.constant(undefined),
    ),
  }),
  object({
    type: fc.constant('input_audio'),
    input_audio: fc.record({ data: base64, format: fc.constantFrom('wav', 'mp3') }),
  }),
  object({
    type: fc.constant('file'),
    file: object({ file_id: optional(id('file-')), filename: optional(text) }, fc.constant(undefined)),
  }),
);
const textContent = fc.oneof(text, fc.array(chatText, { maxLength: 3 }));

const chatInstruction = object({
  role: fc.constantFrom('system', 'developer'),
  content: textContent,
  name: optional(text),
});

const chatToolCall = fc.oneof(
  {
    weight: 4,
    arbitrary: object({
      id: id('call_'),
      type: fc.constant('function'),
      function: fc.record({ name: text, arguments: argumentsText }),
    }),
  },
  {
    weight: 1,
    arbitrary: object({ id: id('call_'), type: fc.constant('custom'), custom: fc.record({ name: text, input: text }) }),
  },
);

const chatAssistant = object({
  role: fc.constant('assistant'),
  content: fc
    .option(
      fc.oneof(
        text,
        fc.array(fc.oneof(chatText, fc.record({ type: fc.constant('refusal'), refusal: text })), { maxLength: 3 }),
      ),
      { nil: undefined },
    )
    .chain((content) => (content === undefined ? fc.constantFrom(undefined, null) : fc.constant(content))),
  refusal: optional(fc.option(text, { nil: null })),
  tool_calls: optional(fc.array(chatToolCall, { maxLength: 3 })),
  audio: optional(fc.option(fc.record({ id: id('audio_') }), { nil: null })),
  name: optional(text),
});

const chatMessage: fc.Arbitrary<Wire> = fc.oneof(
  chatInstruction,
  object({
    role: fc.constant('user'),
    content: fc.oneof(text, fc.array(chatUserPart, { maxLength: 4 })),
    name: optional(text),
  }),
  chatAssistant,
  object({ role: fc.constant('tool'), tool_call_id: id('call_'), content: textContent }),
  object(
    { role: fc.constant('function'), name: text, content: fc.option(text, { nil: null }) },
    fc.constant(undefined),
  ),
);

/** A Chat Completions message list: leading instructions, then any messages. */
export const chatMessages: fc.Arbitrary<OpenAIChatMessage[]> = fc
  .tuple(fc.array(chatInstruction, { maxLength: 2 }), fc.array(chatMessage, { maxLength: 8 }))
  .map(([system, rest]) => asJson([...system, ...rest]) as OpenAIChatMessage[]);

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const inputText = object({ type: fc.constant('input_text'), text, prompt_cache_breakpoint: cacheBreakpoint });
const inputPart = fc.oneof(
  inputText,
  object({
    type: fc.constant('input_image'),
    detail: fc.constantFrom('low', 'high', 'auto', 'original'),
    image_url: optional(fc.option(imageUrl, { nil: null })),
    file_id: optional(id('file-')),
  }),
  object({
    type: fc.constant('input_file'),
    file_id: optional(id('file-')),
    filename: optional(text),
    file_data: optional(base64),
  }),
);
const messageType = optional(fc.constant('message'));
const instruction = object({
  role: fc.constantFrom('system', 'developer'),
  content: fc.oneof(text, fc.array(inputText, { maxLength: 2 })),
  type: messageType,
});
const userItem = object({
  role: fc.constant('user'),
  content: fc.oneof(text, fc.array(inputPart, { maxLength: 3 })),
  type: messageType,
  status: optional(fc.constantFrom('completed', 'incomplete')),
});
const annotation = fc.oneof(
  fc.record({
    type: fc.constant('url_citation'),
    url: text,
    title: text,
    start_index: fc.nat(9),
    end_index: fc.nat(9),
  }),
  fc.record({ type: fc.constant('file_citation'), file_id: id('file-'), filename: text, index: fc.nat(9) }),
);
const outputMessage = object({
  id: id('msg_'),
  type: fc.constant('message'),
  role: fc.constant('assistant'),
  status: fc.constantFrom('completed', 'incomplete', 'in_progress'),
  content: fc.array(
    fc.oneof(
      object({ type: fc.constant('output_text'), text, annotations: fc.array(annotation, { maxLength: 2 }) }),
      fc.record({ type: fc.constant('refusal'), refusal: text }),
    ),
    { maxLength: 3 },
  ),
  phase: optional(fc.constantFrom('commentary', 'final_answer')),
});
const easyAssistant = object({ role: fc.constant('assistant'), content: text, type: messageType });
const reasoning = object({
  id: id('rs_'),
  type: fc.constant('reasoning'),
  summary: fc.array(fc.record({ type: fc.constant('summary_text'), text }), { maxLength: 2 }),
  content: optional(fc.array(fc.record({ type: fc.constant('reasoning_text'), text }), { maxLength: 2 })),
  encrypted_content: optional(fc.option(base64, { nil: null })),
  status: optional(fc.constantFrom('completed', 'incomplete')),
});
const functionCall = object({
  type: fc.constant('function_call'),
  call_id: id('call_'),
  name: text,
  arguments: argumentsText,
  id: optional(id('fc_')),
  status: optional(fc.constantFrom('completed', 'in_progress')),
});
const functionCallOutput = object({
  type: fc.constant('function_call_output'),
  call_id: id('call_'),
  output: fc.oneof(text, fc.array(inputPart, { maxLength: 2 })),
  id: optional(fc.option(id('fco_'), { nil: null })),
  status: optional(fc.constantFrom('completed', 'incomplete')),
});
const otherItem = fc.oneof(
  fc.record({ type: fc.constant('web_search_call'), id: id('ws_'), status: fc.constant('completed') }),
  fc.record({ type: fc.constant('item_reference'), id: id('msg_') }),
  fc.record({
    type: fc.constant('image_generation_call'),
    id: id('ig_'),
    result: base64,
    status: fc.constant('completed'),
  }),
);

const responsesItem: fc.Arbitrary<Wire> = fc.oneof(
  userItem,
  instruction,
  outputMessage,
  easyAssistant,
  reasoning,
  functionCall,
  functionCallOutput,
  otherItem,
);

/** A Responses input: leading instructions, then any items. */
export const responsesItems: fc.Arbitrary<OpenAIResponsesItemInput[]> = fc
  .tuple(fc.array(instruction, { maxLength: 2 }), fc.array(responsesItem, { maxLength: 10 }))
  .map(([system, rest]) => {
    // As the API returns them, a reasoning item is followed by the item it produced.
    const model = (item: Wire | undefined) =>
      item !== undefined && (item.type === 'function_call' || item.role === 'assistant');
    const valid = rest.filter((item, index) => item.type !== 'reasoning' || model(rest[index + 1]));
    return asJson([...system, ...valid]) as OpenAIResponsesItemInput[];
  });
