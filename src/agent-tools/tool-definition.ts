/**
 * A tool as a host hands it to a model: its name, what the model reads about it and the JSON
 * Schema of its input. Each adapter takes these three fields under its own names: OpenAI
 * `{ type: 'function', function: { name, description, parameters: inputSchema } }`, Anthropic
 * `{ name, description, input_schema: inputSchema }`, the AI SDK
 * `tool({ description, inputSchema: jsonSchema(inputSchema) })`.
 *
 * @example
 * ```ts
 * const openAITools = tools.definitions.map((definition: ContextToolDefinition) => ({
 *   type: 'function' as const,
 *   function: { name: definition.name, description: definition.description, parameters: definition.inputSchema },
 * }));
 * ```
 */
export interface ContextToolDefinition {
  /** The tool's name: `context_status` or `recall`. */
  readonly name: string;
  /** What the model reads about the tool. */
  readonly description: string;
  /** The JSON Schema of the tool's input: one flat object. */
  readonly inputSchema: {
    readonly type: 'object';
    readonly properties: Readonly<Record<string, unknown>>;
    readonly required?: readonly string[];
    readonly additionalProperties: false;
  };
}
