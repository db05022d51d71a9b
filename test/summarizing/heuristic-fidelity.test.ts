import type { Message } from 'ctxkit';
import { toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { heuristicCheckpoint } from '../helpers/heuristic-checkpoint.js';
import { commandRun } from '../helpers/tool-runs.js';

function run(id: string, command: string, output: string, isError: boolean): Message[] {
  return commandRun(id, command, output, { isError });
}

function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`## ${title}`) >= 0 ? lines.indexOf(`## ${title}`) : lines.indexOf(`### ${title}`);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{2,3} /.test(line)) break;
    if (line.trim()) out.push(line);
  }
  return out;
}

describe('heuristic checkpoint fidelity', () => {
  it('clears a Blocked item and its Resolve step once the same command passes', async () => {
    const first = await heuristicCheckpoint([
      userMessage('Fix the build.'),
      ...run('a', 'npm test', 'FAIL test/a.test.ts\nError: expected 1 to be 2\nexit code 1', true),
    ]);
    expect(section(first, 'Blocked').join('\n')).toContain('bash `npm test`');
    expect(section(first, 'Next Steps').join('\n')).toContain('Resolve: bash `npm test`');
    const second = await heuristicCheckpoint(
      [...run('b', 'npm test', 'all 12 tests passed\nexit code 0', false)],
      first,
    );
    expect(section(second, 'Blocked')).toEqual(['- (none recorded)']);
    expect(section(second, 'Next Steps').join('\n')).not.toContain('Resolve:');
  });

  it('does not pile up Next Steps over rounds', async () => {
    let summary: string | undefined;
    for (let round = 0; round < 5; round++) {
      summary = await heuristicCheckpoint([userMessage(`Request ${round}: keep going.`)], summary);
    }
    const steps = section(summary!, 'Next Steps');
    expect(steps.filter((line) => line.includes('Continue the latest request'))).toHaveLength(1);
    expect(steps[0]).toMatch(/^1\. Continue the latest request: Request 4/);
  });

  it('lists a file as modified only when an edit of it succeeded, and not the paths in its text', async () => {
    const text = await heuristicCheckpoint([
      userMessage('Rename the helper.'),
      toolCallMessage([
        { id: 'e1', name: 'edit', arguments: { path: 'src/a.ts', old_string: 'see src/b.ts', new_string: 'x' } },
        { id: 'e2', name: 'edit', arguments: { path: 'src/c.ts', old_string: 'y', new_string: 'z' } },
      ]),
      toolResultMessage('e1', 'Edited.', { toolName: 'edit' }),
      toolResultMessage('e2', 'old_string not found', { toolName: 'edit', isError: true }),
    ]);
    const files = section(text, 'Files & Commands').join('\n');
    expect(files).toContain('src/a.ts (modified)');
    expect(files).not.toContain('src/b.ts (modified)');
    expect(files).not.toContain('src/c.ts (modified)');
  });

  it('keeps the first goal at the lowest detail level', async () => {
    const messages: Message[] = [];
    for (let index = 0; index < 30; index++)
      messages.push(userMessage(`${index === 0 ? 'THE ORIGINAL GOAL' : `request ${index}`} ${'w'.repeat(200)}`));
    const text = await heuristicCheckpoint(messages, undefined, 250);
    expect(section(text, 'Goal')[0]).toContain('THE ORIGINAL GOAL');
  });
});
