// Checkpoints that must not state what the conversation contradicts (issue 22): each case is a
// falsehood a checkpoint once wrote, with the conversation that contradicts it.
import { compact, type Message } from 'ctxkit';
import { extractAnchors } from 'ctxkit/summarizing';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { recorded } from '../fixtures/real-batch/batch.js';
import { heuristicCheckpoint } from '../helpers/heuristic-checkpoint.js';
import { commandRun } from '../helpers/tool-runs.js';

function run(id: string, command: string, output: string, exitCode = 0, name = 'bash'): Message[] {
  return commandRun(id, command, output, { exitCode, name });
}

function section(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line === `## ${title}` || line === `### ${title}`);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{2,3} /.test(line)) break;
    if (line.trim()) out.push(line);
  }
  return out.join('\n');
}

const failingRun = `not ok 1 - refills a bucket after one second
  ---
  location: '/home/dev/project/test/bucket.test.mjs:9:1'
  error: |-
    bucket was still empty after 1000 ms
  code: 'ERR_ASSERTION'
  ...
1..1
# tests 1
# pass 0
# fail 1`;
const passingRun = `ok 1 - refills a bucket after one second
  ---
  duration_ms: 1.2
  ...
1..1
# tests 1
# pass 1
# fail 0`;

describe('a checkpoint states only the current state', () => {
  it('a test that passes again is no longer anchored (or pinned) as failing, nor its run as still failing', () => {
    const messages = [
      userMessage('Make the bucket tests pass.'),
      ...run('a', 'node --test test/', failingRun, 1),
      ...run('b', 'node --test test/', passingRun),
    ];
    const anchors = extractAnchors(messages);
    expect(anchors.filter((anchor) => anchor.category === 'failing-test')).toEqual([]);
    expect(anchors.filter((anchor) => anchor.category === 'open-item')).toEqual([]);
    // Carried from an earlier checkpoint, it leaves once the run passes.
    const earlier = extractAnchors(messages.slice(0, 3));
    expect(earlier.some((anchor) => anchor.category === 'failing-test')).toBe(true);
    const later = extractAnchors(messages.slice(3), { previous: earlier });
    expect(later.filter((anchor) => anchor.category === 'failing-test' || anchor.category === 'error')).toEqual([]);
  });

  it('errors of a command leave when the same command runs clean', () => {
    const tsc = `src/a.ts(3,7): error TS2339: Property 'x' does not exist on type 'Y'.`;
    const earlier = extractAnchors([userMessage('Fix the types.'), ...run('a', 'npx tsc --noEmit', tsc, 2)]);
    expect(earlier.some((anchor) => anchor.category === 'error')).toBe(true);
    const later = extractAnchors(run('b', 'npx tsc --noEmit', ''), { previous: earlier });
    expect(later.filter((anchor) => anchor.category === 'error')).toEqual([]);
    // A different command's clean run proves nothing about them.
    const other = extractAnchors(run('c', 'ls src', 'a.ts'), { previous: earlier });
    expect(other.some((anchor) => anchor.category === 'error')).toBe(true);
  });

  it('the heuristic checkpoint drops an error once its command passes, in this round and carried from the last', async () => {
    const first = await heuristicCheckpoint([
      userMessage('Make the bucket tests pass.'),
      ...run('a', 'node --test test/', failingRun, 1),
    ]);
    expect(section(first, 'Critical Context')).toContain('refills a bucket');
    const second = await heuristicCheckpoint(run('b', 'node --test test/', passingRun), first);
    expect(section(second, 'Critical Context')).not.toContain('refills a bucket after one second');
    const same = await heuristicCheckpoint([
      userMessage('Make the bucket tests pass.'),
      ...run('a', 'node --test test/', failingRun, 1),
      ...run('b', 'node --test test/', passingRun),
    ]);
    expect(section(same, 'Critical Context')).not.toContain('refills a bucket after one second');
  });

  it('a call whose result was archived is not reported as having no result', async () => {
    // A compaction sees only visible messages: the archived result is not among them.
    const text = await heuristicCheckpoint([
      userMessage('Run the tests.'),
      toolCallMessage([{ id: 'a', name: 'bash', arguments: { command: 'npm test' } }]),
    ]);
    expect(text).toContain('npm test');
    expect(text).not.toContain('no result');
  });

  it('a failed edit is not listed under Done', async () => {
    const text = await heuristicCheckpoint([
      userMessage('Fix the limiter.'),
      assistantMessage('I will change the refill rate in src/limiter.ts.'),
      toolCallMessage([
        { id: 'e', name: 'edit', arguments: { path: 'src/limiter.ts', oldText: 'rate = 1', newText: 'rate = 2' } },
      ]),
      toolResultMessage('e', 'Error: oldText not found in src/limiter.ts', { toolName: 'edit', isError: true }),
      assistantMessage('The edit did not apply; reading the file again.'),
    ]);
    expect(section(text, 'Done')).not.toContain('refill rate');
    expect(text).not.toContain('src/limiter.ts (modified)');
  });

  it('an off-topic question of the user is neither the Goal nor ranked above errors', async () => {
    const messages = [
      userMessage('Make `npm test` pass on the rate limiter.'),
      ...run('a', 'npx tsc --noEmit', `src/a.ts(3,7): error TS2339: Property 'x' does not exist on type 'Y'.`, 2),
      userMessage('By the way, what time zone is the CI server in?'),
    ];
    const text = await heuristicCheckpoint(messages);
    expect(section(text, 'Goal').split('\n')[0]).toContain(
      'Make npm test pass on the rate limiter.'.replace('npm test', '`npm test`'),
    );
    expect(section(text, 'Next Steps')).not.toContain('Continue the latest request: By the way');
    const anchors = extractAnchors(messages);
    const rank = (category: string, text: string) =>
      anchors.findIndex((anchor) => anchor.category === category && anchor.text.includes(text));
    // Pinned in priority order: the error before the question.
    const notes = run('n', 'cat docs/notes.md', 'The limiter refills its bucket once a second. '.repeat(80));
    const compacted = await compact([...messages, ...notes, userMessage('Carry on.')], {
      summarizer: { summarize: async () => 'Working on it.' },
      config: { keepRecent: 1, keepRecentTokens: 0 },
      maxOutputTokens: 40,
    });
    expect(rank('error', 'TS2339')).toBeGreaterThanOrEqual(0);
    expect(compacted.summary).toContain('TS2339');
    expect(compacted.summary).not.toContain('time zone');
  });

  it('a constraint is not cut at “e.g.”', () => {
    const anchors = extractAnchors([
      userMessage('Never log secrets, e.g. API keys or session tokens, anywhere in the output.'),
    ]);
    const constraint = anchors.find((anchor) => anchor.category === 'constraint');
    expect(constraint?.text).toBe('Never log secrets, e.g. API keys or session tokens, anywhere in the output.');
  });

  it('an error anchor states the error, not “Exit code 1”', () => {
    const anchors = extractAnchors([
      userMessage('Deploy it.'),
      ...run('a', './deploy.sh', 'Uploading build…\nconnection refused: registry.internal:5000\nExit code 1', 1),
    ]);
    const errors = anchors.filter((anchor) => anchor.category === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error.text).not.toMatch(/^(Command exited with code|Exit code) \d+$/i);
    expect(errors.map((error) => error.text).join('\n')).toContain('connection refused');
  });

  it('a TODO that is done is no longer open', () => {
    const anchors = extractAnchors([
      userMessage('Add retries.'),
      assistantMessage('TODO: add a test for the retry-after header.'),
      assistantMessage('Added a test for the retry-after header; it passes.'),
    ]);
    expect(anchors.filter((anchor) => anchor.category === 'open-item')).toEqual([]);
  });

  it('real node --test output is rendered by its failing tests, not as “error: |-”', async () => {
    const nodeTest = recorded.results.find((result) => result.command === 'node --test test/')!;
    const text = await heuristicCheckpoint([
      userMessage('Make the tests pass.'),
      ...run('a', nodeTest.command, nodeTest.output, 1),
    ]);
    expect(text).not.toMatch(/error: \|-/);
    expect(section(text, 'Critical Context')).toContain('rounds half up to two places');
  });
});
