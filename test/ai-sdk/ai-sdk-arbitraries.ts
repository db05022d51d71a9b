import { fc } from '@fast-check/vitest';

// fast-check arbitraries of the AI SDK's ModelMessage[]: valid prompts, with the parts ctxkit does
// not model (files, approvals, provider-executed results), provider options everywhere, and bytes.

const nonBlank = fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.trim().length > 0);
const base64 = fc.base64String({ minLength: 4, maxLength: 16 });
const bytes = fc.uint8Array({ minLength: 1, maxLength: 12 });
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const providerOptions = fc.constantFrom(
  { anthropic: { cacheControl: { type: 'ephemeral' } } },
  { openai: { itemId: 'msg_123' } },
  { anthropic: { signature: 'EqQB' } },
);
const withOptions = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T, required: (keyof T & string)[]) =>
  fc.record({ ...model, providerOptions }, { requiredKeys: required, noNullPrototype: true });

const textPart = withOptions({ type: fc.constant('text'), text: nonBlank }, ['type', 'text']);
const imagePart = withOptions(
  {
    type: fc.constant('image'),
    image: fc.oneof(
      base64,
      fc.webUrl(),
      bytes,
      fc.webUrl().map((url) => new URL(url)),
    ),
    mediaType: fc.constantFrom('image/png', 'image/jpeg'),
  },
  ['type', 'image'],
);
const filePart = withOptions(
  {
    type: fc.constant('file'),
    data: fc.oneof(base64, bytes),
    mediaType: fc.constantFrom('application/pdf', 'image/png', 'text/plain'),
    filename: nonBlank,
  },
  ['type', 'data', 'mediaType'],
);
const reasoningPart = withOptions({ type: fc.constant('reasoning'), text: fc.string({ maxLength: 30 }) }, [
  'type',
  'text',
]);
const toolCall = (id: string) =>
  withOptions(
    {
      type: fc.constant('tool-call'),
      toolCallId: fc.constant(id),
      toolName: fc.constantFrom('bash', 'read'),
      input: fc.oneof(
        {
          weight: 5,
          arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3, noNullPrototype: true }),
        },
        { weight: 1, arbitrary: json },
      ),
      providerExecuted: fc.boolean(),
    },
    ['type', 'toolCallId', 'toolName', 'input'],
  );
const approvalRequest = (id: string) =>
  fc.constant({ type: 'tool-approval-request', approvalId: `approval_${id}`, toolCallId: id });

const contentItem = fc.oneof(
  withOptions({ type: fc.constant('text'), text: nonBlank }, ['type', 'text']),
  withOptions({ type: fc.constant('image-data'), data: base64, mediaType: fc.constant('image/png') }, [
    'type',
    'data',
    'mediaType',
  ]),
  withOptions({ type: fc.constant('image-url'), url: fc.webUrl() }, ['type', 'url']),
  // Items both majors accept (`ai` 6's deprecated `media` is gone in 7; it has its own example test).
  fc.record(
    { type: fc.constant('file-data'), data: base64, mediaType: fc.constantFrom('application/pdf', 'audio/wav') },
    { noNullPrototype: true },
  ),
  fc.record({ type: fc.constant('file-url'), url: fc.webUrl() }, { noNullPrototype: true }),
);
const output = fc.oneof(
  withOptions({ type: fc.constant('text'), value: fc.string({ maxLength: 40 }) }, ['type', 'value']),
  withOptions({ type: fc.constant('error-text'), value: fc.string({ maxLength: 40 }) }, ['type', 'value']),
  withOptions({ type: fc.constant('json'), value: json }, ['type', 'value']),
  withOptions({ type: fc.constant('error-json'), value: json }, ['type', 'value']),
  withOptions({ type: fc.constant('execution-denied'), reason: nonBlank }, ['type']),
  fc.record(
    { type: fc.constant('content'), value: fc.array(contentItem, { minLength: 1, maxLength: 3 }) },
    { noNullPrototype: true },
  ),
);
const toolResult = (id: string) =>
  withOptions(
    {
      type: fc.constant('tool-result'),
      toolCallId: fc.constant(id),
      toolName: fc.constantFrom('bash', 'read'),
      output,
    },
    ['type', 'toolCallId', 'toolName', 'output'],
  );

const messageOptions = fc.option(providerOptions, { nil: undefined, freq: 4 });
const message = <T>(role: string, content: fc.Arbitrary<T>) =>
  fc
    .tuple(content, messageOptions)
    .map(([value, options]) => ({ role, content: value, ...(options ? { providerOptions: options } : {}) }));

function isUnsignedReasoning(part: { type?: unknown; providerOptions?: unknown }): boolean {
  const anthropic = (part.providerOptions as { anthropic?: { signature?: unknown } } | undefined)?.anthropic;
  return part.type === 'reasoning' && anthropic?.signature === undefined;
}

function exchange(turn: number) {
  return fc.nat(2).chain((calls) => {
    const ids = Array.from({ length: calls }, (_, index) => `call_${turn}_${index}`);
    const user = message(
      'user',
      fc.oneof(nonBlank, fc.array(fc.oneof(textPart, imagePart, filePart), { minLength: 1, maxLength: 3 })),
    );
    const assistant = message(
      'assistant',
      fc.oneof(
        nonBlank,
        fc
          .tuple(
            fc.array(fc.oneof(reasoningPart, textPart, filePart), { maxLength: 2 }),
            fc.tuple(...ids.map(toolCall)),
            fc.boolean(),
          )
          .map(([parts, uses, approve]) => [
            ...parts,
            ...uses,
            ...(approve && ids[0]
              ? [{ type: 'tool-approval-request', approvalId: `approval_${ids[0]}`, toolCallId: ids[0] }]
              : []),
          ])
          // A turn of unsigned reasoning only is no valid prompt: providers would send it empty.
          .filter((parts) => parts.length > 0 && !parts.every(isUnsignedReasoning)),
      ),
    );
    const tool =
      ids.length === 0
        ? fc.constant([])
        : fc.tuple(message('tool', fc.tuple(...ids.map(toolResult))), fc.boolean()).map(([first, split]) => {
            const parts = first.content as unknown[];
            return split && parts.length > 1
              ? [
                  { ...first, content: parts.slice(0, 1) },
                  { role: 'tool', content: parts.slice(1) },
                ]
              : [first];
          });
    return fc.tuple(user, assistant, tool).map(([u, a, t]) => [u, a, ...t]);
  });
}

/** A valid `ModelMessage[]`: optional leading system messages, then exchanges with tool calls answered. */
export const modelMessages = fc
  .tuple(
    fc.array(message('system', nonBlank), { maxLength: 2 }),
    fc
      .integer({ min: 1, max: 4 })
      .chain((count) => fc.tuple(...Array.from({ length: count }, (_, turn) => exchange(turn)))),
    fc.option(message('system', nonBlank), { nil: undefined, freq: 5 }),
  )
  .map(([system, exchanges, late]) => {
    const body = exchanges.flat();
    if (late) body.splice(1, 0, late);
    return [...system, ...body];
  });

export { approvalRequest };
