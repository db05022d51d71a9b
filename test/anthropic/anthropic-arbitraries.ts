import { fc } from '@fast-check/vitest';

// fast-check arbitraries of the Messages API wire types: valid requests as the API accepts them,
// with the blocks ctxkit does not model and a few from the future.

const nonBlank = fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim().length > 0);
const base64 = fc.base64String({ minLength: 4, maxLength: 24 });
const cacheControl = fc.constantFrom({ type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }, null);
const json = fc.jsonValue({ maxDepth: 2 });
const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 });

const citation = fc.record({
  type: fc.constant('char_location'),
  cited_text: nonBlank,
  document_index: fc.nat(3),
  document_title: fc.option(nonBlank, { nil: null }),
  start_char_index: fc.nat(100),
  end_char_index: fc.nat(200),
});

export const textBlock = fc.record(
  {
    type: fc.constant('text'),
    text: nonBlank,
    cache_control: cacheControl,
    citations: fc.option(fc.array(citation, { maxLength: 2 }), { nil: null }),
  },
  { requiredKeys: ['type', 'text'] },
);

export const imageBlock = fc.record(
  {
    type: fc.constant('image'),
    source: fc.oneof(
      fc.record({
        type: fc.constant('base64'),
        media_type: fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp'),
        data: base64,
      }),
      fc.record({ type: fc.constant('url'), url: fc.webUrl() }),
      fc.record({ type: fc.constant('file'), file_id: nonBlank }),
    ),
    cache_control: cacheControl,
  },
  { requiredKeys: ['type', 'source'] },
);

export const documentBlock = fc.record(
  {
    type: fc.constant('document'),
    source: fc.oneof(
      fc.record({ type: fc.constant('text'), media_type: fc.constant('text/plain'), data: nonBlank }),
      fc.record({ type: fc.constant('base64'), media_type: fc.constant('application/pdf'), data: base64 }),
      fc.record({ type: fc.constant('url'), url: fc.webUrl() }),
    ),
    title: fc.option(nonBlank, { nil: null }),
    context: nonBlank,
    citations: fc.record({ enabled: fc.boolean() }),
    cache_control: cacheControl,
  },
  { requiredKeys: ['type', 'source'] },
);

const searchResultBlock = fc.record({
  type: fc.constant('search_result'),
  source: fc.webUrl(),
  title: nonBlank,
  content: fc.array(fc.record({ type: fc.constant('text'), text: nonBlank }), { minLength: 1, maxLength: 2 }),
});

/** A block type that does not exist yet. */
const futureBlock = fc.record({
  type: fc.stringMatching(/^future_[a-z]{1,8}$/),
  payload: json,
});

const thinkingBlock = fc.oneof(
  fc.record({ type: fc.constant('thinking'), thinking: fc.string({ maxLength: 60 }), signature: nonBlank }),
  fc.record({ type: fc.constant('redacted_thinking'), data: nonBlank }),
);

const serverBlocks = (turn: number) =>
  fc.constantFrom(
    { type: 'server_tool_use', id: `srvtoolu_${turn}`, name: 'web_search', input: { query: 'ctxkit' } },
    {
      type: 'web_search_tool_result',
      tool_use_id: `srvtoolu_${turn}`,
      content: [
        {
          type: 'web_search_result',
          url: 'https://example.com',
          title: 'Example',
          encrypted_content: 'Eu8B',
          page_age: null,
        },
      ],
    },
  );

const toolUse = (id: string) =>
  fc.record(
    {
      type: fc.constant('tool_use'),
      id: fc.constant(id),
      name: fc.constantFrom('bash', 'read_file', 'grep'),
      input: fc.oneof({ weight: 6, arbitrary: jsonObject }, { weight: 1, arbitrary: json }),
      cache_control: cacheControl,
      caller: fc.constant({ type: 'direct' }),
    },
    { requiredKeys: ['type', 'id', 'name', 'input'] },
  );

const toolResult = (id: string) =>
  fc.record(
    {
      type: fc.constant('tool_result'),
      tool_use_id: fc.constant(id),
      content: fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.array(fc.oneof(textBlock, imageBlock, documentBlock, searchResultBlock), { maxLength: 3 }),
      ),
      is_error: fc.boolean(),
      cache_control: cacheControl,
    },
    { requiredKeys: ['type', 'tool_use_id'] },
  );

const userContent = fc.oneof(
  nonBlank,
  fc.array(fc.oneof(textBlock, imageBlock, documentBlock, searchResultBlock, futureBlock), {
    minLength: 1,
    maxLength: 3,
  }),
);

/** One exchange: a user turn (with the results of the previous tool uses first), then an assistant turn. */
function exchange(turn: number, pending: readonly string[]) {
  return fc
    .record({
      results: fc.tuple(...pending.map((id) => toolResult(id))),
      extra: fc.array(fc.oneof(textBlock, imageBlock, documentBlock), { maxLength: 2 }),
      user: userContent,
      thinking: fc.array(thinkingBlock, { maxLength: 2 }),
      reply: fc.array(fc.oneof({ weight: 4, arbitrary: textBlock }, { weight: 1, arbitrary: futureBlock }), {
        maxLength: 2,
      }),
      server: fc.option(serverBlocks(turn), { nil: undefined }),
      calls: fc.nat(3),
      stringReply: fc.option(nonBlank, { freq: 6, nil: undefined }),
    })
    .chain((parts) => {
      const ids = Array.from({ length: parts.calls }, (_, index) => `toolu_${turn}_${index}`);
      return fc.tuple(fc.constant(parts), fc.tuple(...ids.map((id) => toolUse(id))));
    })
    .map(([parts, uses]) => {
      const user =
        pending.length > 0
          ? { role: 'user', content: [...parts.results, ...parts.extra] }
          : { role: 'user', content: parts.user };
      if (Array.isArray(user.content) && user.content.length === 0) user.content = [{ type: 'text', text: 'go on' }];
      let content: unknown = [...parts.thinking, ...parts.reply, ...(parts.server ? [parts.server] : []), ...uses];
      if ((content as unknown[]).length === 0) content = parts.stringReply ?? 'ok';
      return { turns: [user, { role: 'assistant', content }], pending: uses.map((use) => use.id) };
    });
}

/** A valid `messages` array: alternating turns, every tool use answered first thing in the next user turn. */
export const anthropicMessages = fc.integer({ min: 1, max: 6 }).chain((exchanges) => {
  let arbitrary: fc.Arbitrary<{ turns: unknown[]; pending: string[] }> = fc.constant({ turns: [], pending: [] });
  for (let turn = 0; turn < exchanges; turn++) {
    arbitrary = arbitrary.chain((state) =>
      exchange(turn, state.pending).map((next) => ({ turns: [...state.turns, ...next.turns], pending: next.pending })),
    );
  }
  return arbitrary.map((state) =>
    asJson(
      state.pending.length === 0
        ? state.turns
        : [
            ...state.turns,
            {
              role: 'user',
              content: state.pending.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'done' })),
            },
          ],
    ),
  );
});

/** What the wire carries: plain JSON (no null prototypes, no `-0`). */
function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The `system` parameter: absent, a string, or text blocks with `cache_control`. */
export const anthropicSystem = fc.option(
  fc.oneof(nonBlank, fc.array(textBlock, { minLength: 1, maxLength: 2 })).map(asJson),
  { nil: undefined },
);
