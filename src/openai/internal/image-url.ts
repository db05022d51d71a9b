import type { ImageContent } from '../../types.js';

// Images travel as URLs on the wire: a base64 `data:` URL becomes data and a MIME type in ctxkit,
// any other URL stays a URL.

const DATA_URL = /^data:([^;,:]+);base64,([^:]*)$/;

/** An image from a URL: a base64 `data:` URL becomes data and MIME type; any other URL stays a URL. @internal */
export function imageFromUrl(url: string): Pick<ImageContent, 'data' | 'mimeType'> & { opaque?: true } {
  const match = DATA_URL.exec(url);
  if (match) return { data: match[2]!, mimeType: match[1]! };
  // A URL always has a scheme, so `data` holding a ':' marks it as a URL on the way back; a string
  // without one is flagged so it is not taken for base64.
  return { data: url, mimeType: guessMimeType(url), ...(url.includes(':') ? {} : { opaque: true }) };
}

/** The URL to send for an image: its own URL, or a `data:` URL built from its base64 data. @internal */
export function imageUrl(image: ImageContent, opaque: unknown): string {
  return opaque === true || image.data.includes(':') ? image.data : `data:${image.mimeType};base64,${image.data}`;
}

function guessMimeType(url: string): string {
  const extension = /\.(png|jpe?g|gif|webp)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  if (extension === undefined) return 'image/*';
  return extension === 'jpg' ? 'image/jpeg' : `image/${extension}`;
}
