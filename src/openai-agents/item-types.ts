/**
 * The OpenAI Agents SDK's items (`AgentInputItem` of `@openai/agents`), as `ctxkit/openai-agents`
 * reads them, declared here so the entry has no runtime dependency on the SDK. Items are the SDK's
 * protocol objects (`callId`, `providerData`…), not the Responses API's wire items.
 */

/**
 * One item of an Agents SDK conversation: a user, system or assistant `message`, a `function_call`,
 * a `function_call_result`, a `reasoning` item, or any other item (hosted tool calls, compaction…),
 * which ctxkit carries verbatim.
 *
 * @example
 * ```ts
 * const items: AgentItem[] = [
 *   { role: 'user', content: 'List the files' },
 *   { type: 'function_call', callId: 'call_1', name: 'list_files', arguments: '{}' },
 *   { type: 'function_call_result', callId: 'call_1', name: 'list_files', status: 'completed', output: 'a.ts' },
 * ];
 * ```
 */
export interface AgentItem {
  type?: string;
  role?: string;
  [field: string]: unknown;
}

/**
 * What a `callModelInputFilter` receives and returns (`ModelInputData`): the items for this model
 * call and the system instructions.
 *
 * @example
 * ```ts
 * const data: AgentModelInput = { input: [{ role: 'user', content: 'hi' }], instructions: 'Be terse.' };
 * ```
 */
export interface AgentModelInput<Item = AgentItem> {
  input: Item[];
  instructions?: string;
}

/**
 * Something a converter left out or could not carry, with the index of the item (in its input) it
 * is about.
 *
 * @example
 * ```ts
 * const warning: ConversionWarning = { index: 2, message: 'items[2] is a computer_call; ctxkit carries it verbatim.' };
 * ```
 */
export interface ConversionWarning {
  /** The index of the item (in the converter's input) the warning is about. */
  index: number;
  /** What was lost or changed, in words. */
  message: string;
}
