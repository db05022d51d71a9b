export { defaultSpillDirectory } from './default-spill-directory.js';
export { type CreateFileMemoryStoreOptions, createFileMemoryStore } from './file-memory-store.js';
export { type CreateFileSpillStoreOptions, createFileSpillStore } from './file-spill-store.js';
export {
  type CreateJsonlStoreOptions,
  createJsonlStore,
  JSONL_FORMAT_VERSION,
  type JsonlSessionStore,
  type JsonlStoreWarning,
} from './jsonl-store.js';
