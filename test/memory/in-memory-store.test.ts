import { createInMemoryMemoryStore } from '../../src/memory/index.js';
import { runMemoryStoreConformance } from './conformance.js';

runMemoryStoreConformance('in-memory store', () => ({ store: createInMemoryMemoryStore() }));
