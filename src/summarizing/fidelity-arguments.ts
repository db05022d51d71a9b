// The arguments of the fidelity exports (anchored facts, tool-output parsers), checked where a host
// passes them: a ConfigError that names the function and the argument instead of a TypeError deep
// inside a parser.
import * as v from '../validation/light-schema.js';
import { parseOptions } from '../validation/parse-options.js';
import { type Anchor, anchorSchema } from './anchors/anchor.js';

const text = /* @__PURE__ */ v.string({ error: 'must be a string' });
const anchors = /* @__PURE__ */ v.array(anchorSchema, {
  error: 'must be an array of anchors, as extractAnchors returns them',
});

/** `value` as a string, or a ConfigError naming `functionName` and `name`. @internal */
export function checkedText(functionName: string, value: unknown, name: string): string {
  return typeof value === 'string' ? value : parseOptions(functionName, text, value, name);
}

/** `value` as anchors, or a ConfigError naming `functionName` and the bad anchor. @internal */
export function checkedAnchors(functionName: string, value: unknown): readonly Anchor[] {
  return parseOptions(functionName, anchors, value, 'anchors');
}
