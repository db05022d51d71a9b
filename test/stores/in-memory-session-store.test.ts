import { createInMemorySessionStore } from 'ctxkit/session';
import { describeSessionStoreConformance } from 'ctxkit/testing';
import { afterEach, describe, expect, it } from 'vitest';

describeSessionStoreConformance({
  name: 'in-memory session store',
  create: () => createInMemorySessionStore(),
  runner: { afterEach, describe, expect, it },
});
