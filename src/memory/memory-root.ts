/** The root of the memory tree as the model sees it. Every memory path starts with it. */
export const MEMORY_ROOT = '/memories';
