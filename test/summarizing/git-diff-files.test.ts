// The files a real `git diff` reports changed, as anchors: from the patch (a rename with where it
// came from) and from `--stat`, the form agents run first to see what a change touches. The outputs
// were made in a scratch repository (test/fixtures/tool-outputs/trial/README.md).
import { readFileSync } from 'node:fs';
import { extractAnchors } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';
import { commandRun } from '../helpers/tool-runs.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/tool-outputs/trial/${name}`, import.meta.url), 'utf8');

function changedFiles(command: string, output: string): string[] {
  return extractAnchors(commandRun('call_1', command, output))
    .filter((anchor) => anchor.category === 'file-changed')
    .map((anchor) => anchor.text);
}

describe('files a real git diff reports changed', () => {
  it('from the patch: the new file, the edit, and the rename with the path it came from', () => {
    expect(changedFiles('git diff --cached', fixture('git-diff-rename.txt'))).toEqual([
      'logo.png ((new) +0 -0)',
      'scripts/deploy.sh (+1 -0 @ line 6)',
      'scripts/verify.sh ((renamed from scripts/check.sh) +0 -0)',
    ]);
  });

  it('from --stat: each file with its change, a rename by its new path', () => {
    expect(changedFiles('git diff --cached --stat', fixture('git-diff-stat.txt'))).toEqual([
      'logo.png (Bin 0 -> 17 bytes)',
      'scripts/deploy.sh (1 +)',
      'scripts/verify.sh (renamed from scripts/check.sh, 0)',
    ]);
  });
});
