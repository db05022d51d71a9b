import { createMemoryStore } from '../../src/index.js';
import { runSessionStoreConformance } from './conformance.js';

runSessionStoreConformance('memory store', () => ({ store: createMemoryStore() }));
