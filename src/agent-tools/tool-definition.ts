/**
 * A tool as a host hands it to a model: its name, what the model reads about it and the JSON
 * Schema of its input. Each adapter takes these three fields under its own names: OpenAI
 * `{ type: 'function', function: { name, description, parameters: inputSchema } }`, Anthropic
 * `{ name, description, input_schema: inputSchema }`, the AI SDK
 * `tool({ description, inputSchema: jsonSchema(structuredClone(inputSchema)) })`.
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
  /**
   * The JSON Schema of the tool's input: one flat object of string and integer fields. Its arrays
   * are typed as plain arrays (they are frozen all the same) so the schema fits the SDKs' tool
   * types (Anthropic's `input_schema`, the AI SDK's `jsonSchema()`, OpenAI's `parameters`) without
   * a cast.
   */
  readonly inputSchema: {
    readonly type: 'object';
    readonly properties: {
      readonly [field: string]: {
        readonly type: 'string' | 'integer';
        readonly description: string;
        readonly minLength?: number;
        readonly minimum?: number;
        readonly maximum?: number;
      };
    };
    readonly required?: string[];
    readonly additionalProperties: false;
  };
}
