import { describe, expect, it } from 'vitest';
import { sameStructure } from '../../src/internal/same-structure.js';

describe('sameStructure', () => {
  it('compares binary data by the bytes it views, not by the pooled buffer behind it', () => {
    // Small Buffers share Node's pool: two different contents, one ArrayBuffer behind both.
    const first = Buffer.from('first image bytes');
    const second = Buffer.from('other image bytes');
    expect(first.buffer).toBe(second.buffer);
    expect(sameStructure({ data: first }, { data: second })).toBe(false);
    expect(sameStructure({ data: first }, { data: new Uint8Array([...first]) })).toBe(true);
    expect(sameStructure(first, 'first image bytes')).toBe(false);
  });

  it('leaves out the ignored key and keys holding undefined, and compares URLs by href', () => {
    expect(sameStructure({ id: 'a', text: 'x' }, { id: 'b', text: 'x' }, 'id')).toBe(true);
    expect(sameStructure({ id: 'a', text: 'x' }, { id: 'b', text: 'x' })).toBe(false);
    expect(sameStructure({ text: 'x', extra: undefined }, { text: 'x' })).toBe(true);
    expect(sameStructure([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(sameStructure({ url: new URL('https://example.com/a') }, { url: new URL('https://example.com/a') })).toBe(
      true,
    );
    expect(sameStructure({ url: new URL('https://example.com/a') }, { url: 'https://example.com/a' })).toBe(false);
  });
});
