import { ConfigError } from 'ctxkit';
import {
  checkAnchors,
  extractAnchors,
  parseToolOutput,
  pinAnchors,
  renderToolOutput,
  summarizeToolOutput,
} from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';

const refused = (run: () => unknown, message: RegExp) => {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(ConfigError.isInstance(error), String(error)).toBe(true);
  expect(String((error as Error).message)).toMatch(message);
};

describe('the fidelity exports name the function and the argument a host got wrong', () => {
  it('refuses anchors that are not anchors', () => {
    refused(() => checkAnchors('summary', null as never), /^checkAnchors: anchors must be an array of anchors/);
    refused(
      () => checkAnchors('summary', [{ category: 'goal', text: 'x' }] as never),
      /^checkAnchors: anchors\.0\.keys must be an array/,
    );
    refused(
      () => pinAnchors('summary', [], { maxChars: -1 }),
      /^pinAnchors: options\.maxChars must be a finite number ≥ 0/,
    );
    refused(
      () => extractAnchors([], { previous: 'goal' as never }),
      /^extractAnchors: options\.previous must be an array/,
    );
  });

  it('refuses text, options and parses of the wrong shape', () => {
    refused(() => parseToolOutput(42 as never), /^parseToolOutput: text must be a string \(got 42\)/);
    refused(
      () => parseToolOutput('ok', { format: 'make' as never }),
      /^parseToolOutput: options\.format must be one of/,
    );
    refused(() => summarizeToolOutput('ok', { maxChars: Number.NaN }), /^summarizeToolOutput: options\.maxChars/);
    refused(() => renderToolOutput({} as never, 100), /^renderToolOutput: parsed\.format/);
  });

  it('still accepts what they document', () => {
    expect(
      checkAnchors('Ship the parser', [{ category: 'goal', text: 'Ship it', keys: ['ship the parser'] }]).kept,
    ).toHaveLength(1);
    expect(summarizeToolOutput('all good', { maxChars: 200 })).toContain('all good');
  });
});
