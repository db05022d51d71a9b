export { defaultSpillDirectory } from './default-spill-directory.js';
export { type CreateFileMemoryStoreOptions, createFileMemoryStore } from './file-memory-store.js';
export { type CreateFileSpillStoreOptions, createFileSpillStore } from './file-spill-store.js';
export { JSONL_FORMAT_VERSION } from './jsonl-file.js';
export type { CreateJsonlStoreOptions, JsonlSessionStore, JsonlStoreWarning } from './jsonl-store.js';
export { createJsonlStore } from './jsonl-store.js';
