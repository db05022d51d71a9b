import { test } from '@fast-check/vitest';
import type { ModelMessage } from 'ai';
import type { Message } from 'ctxkit';
import { fromModelMessages, toModelMessages } from 'ctxkit/ai-sdk';
import { arbitraryConversation, imageMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

// Which part a ctxkit image is written as: a `file` part with its image/* type, unless it was read
// from the host's own `image` part (then an `image` part again, exactly as it came).

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Every part of the user messages written, flattened. */
function userParts(messages: readonly unknown[]): { type: string }[] {
  return (messages as ModelMessage[]).flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content) ? (message.content as { type: string }[]) : [],
  );
}

describe('ctxkit images as AI SDK parts', () => {
  it('writes an image ctxkit made as a file part with its media type', () => {
    const written = toModelMessages({
      messages: [
        imageMessage(PIXEL, { mimeType: 'image/png' }),
        imageMessage('https://example.com/a.jpg', { mimeType: 'image/jpeg' }),
      ],
    });
    expect(written.messages).toStrictEqual([
      { role: 'user', content: [{ type: 'file', data: PIXEL, mediaType: 'image/png' }] },
      { role: 'user', content: [{ type: 'file', data: 'https://example.com/a.jpg', mediaType: 'image/jpeg' }] },
    ]);
    expect(written.warnings).toEqual([]);
  });

  it("writes an image read from the host's image part back as that image part", () => {
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'image', image: PIXEL, mediaType: 'image/png' },
          { type: 'image', image: new Uint8Array([137, 80, 78, 71]) },
          {
            type: 'image',
            image: new URL('https://example.com/a.png'),
            providerOptions: { openai: { imageDetail: 'low' } },
          },
        ],
      },
    ];
    const read = fromModelMessages(messages);
    expect(read.messages[0]!.content).toHaveLength(3);
    expect(toModelMessages(read).messages).toStrictEqual(messages);
  });

  test.prop([arbitraryConversation({ maxLength: 12 })])(
    'no image ctxkit made is written as a deprecated image part',
    (conversation: Message[]) => {
      const parts = userParts(toModelMessages({ messages: conversation }).messages);
      expect(parts.filter((part) => part.type === 'image')).toEqual([]);
      const images = conversation.flatMap((message) =>
        message.role === 'user' && Array.isArray(message.content)
          ? message.content.filter((part) => part.type === 'image')
          : [],
      );
      const files = parts.filter((part) => part.type === 'file') as unknown as { data: unknown; mediaType: string }[];
      expect(files.map((file) => [file.data, file.mediaType])).toEqual(
        images.map((image) => [image.data, image.mimeType]),
      );
    },
  );
});
