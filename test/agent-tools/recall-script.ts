// The scripted recall session both recall end-to-end tests run: step 0 reads a build log, steps
// 1–39 read the docs, then the agent must answer with the artifact's checksum, a plain line in the
// middle of the log that no summary has reason to keep.
import { readFileSync } from 'node:fs';

/** The docs the scripted agent reads between the build log and its answer. */
export const DOCS = ['README.md', 'docs/context-manager.md', 'docs/architecture.md', 'docs/session-tree.md'].map(
  (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'),
);
/** The fact only `recall` can bring back. */
export const CHECKSUM = 'sha256-5f1c0e9a7b2d4c3e8f6a1b0d9c8e7f6a';
/** A 400-line build log with the checksum on line 200. */
export const BUILD_LOG = Array.from({ length: 400 }, (_, line) =>
  line === 200 ? `artifact checksum ${CHECKSUM}` : `step ${line}: compiled module ${line} in ${(line * 7) % 90} ms`,
).join('\n');
/** Tool steps before the agent must answer. */
export const STEPS = 40;
