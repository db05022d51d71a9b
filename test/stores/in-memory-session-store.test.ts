import { createInMemorySessionStore } from '../../src/index.js';
import { runSessionStoreConformance } from './conformance.js';

runSessionStoreConformance('in-memory session store', () => ({ store: createInMemorySessionStore() }));
