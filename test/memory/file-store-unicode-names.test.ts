// Names on disk that are not in NFC (written by macOS, by an archive tool, by hand): the memory
// tool's paths are NFC, so the file store matches names by their NFC form and addresses the name
// as it is on disk. It never creates a second, NFC-named copy beside it.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryTool, type MemoryToolResult } from '../../src/memory/index.js';
import { createFileMemoryStore } from '../../src/node/index.js';

const NFC_FILE = 'café.md'.normalize('NFC');
const NFD_FILE = 'café.md'.normalize('NFD');
const NFD_FOLDER = 'résumés'.normalize('NFD');

let root: string;
beforeEach(async () => {
  root = join(await mkdtemp(join(tmpdir(), 'ctxkit-memory-nfd-')), 'memories');
  await mkdir(join(root, NFD_FOLDER), { recursive: true });
  await writeFile(join(root, NFD_FILE), 'menu: espresso\n');
  await writeFile(join(root, NFD_FOLDER, NFD_FILE), 'inner\n');
});
afterEach(async () => {
  await rm(join(root, '..'), { recursive: true, force: true });
});

const tool = () => createMemoryTool({ store: createFileMemoryStore({ directory: root }) });

/** The text of a result, or the error it carries prefixed `error:`. */
const text = (result: MemoryToolResult) => ('content' in result ? result.content : `error: ${result.error}`);

describe('the file memory store and names that are not NFC on disk', () => {
  it('lists them under their NFC path', async () => {
    const view = text(await tool().execute({ command: 'view', path: '/memories' }));
    expect(view).toContain(`/memories/${NFC_FILE}`);
    expect(view).toContain(`/memories/${'résumés'.normalize('NFC')}`);
  });

  it('reads, edits, renames and deletes the file as it is on disk, through directories named so too', async () => {
    const memory = tool();
    const nfcPath = `/memories/${NFC_FILE}`;
    expect(text(await memory.execute({ command: 'view', path: nfcPath }))).toContain('menu: espresso');
    // The NFD spelling of the path resolves to the same file.
    expect(text(await memory.execute({ command: 'view', path: `/memories/${NFD_FILE}` }))).toContain('espresso');
    const inner = `/memories/${'résumés'.normalize('NFC')}/${NFC_FILE}`;
    expect(text(await memory.execute({ command: 'view', path: inner }))).toContain('inner');
    const edit = await memory.execute({ command: 'str_replace', path: nfcPath, old_str: 'espresso', new_str: 'latte' });
    expect(text(edit)).not.toMatch(/^error/);
    expect(await readFile(join(root, NFD_FILE), 'utf8')).toBe('menu: latte\n');
    expect((await readdir(root)).sort()).toEqual([NFD_FOLDER, NFD_FILE].sort());
    // Creating it again is refused: it exists, under its NFD name.
    const again = await memory.execute({ command: 'create', path: nfcPath, file_text: 'x' });
    expect(text(again)).toMatch(/^error: .*exists/);
    expect(
      text(await memory.execute({ command: 'rename', old_path: nfcPath, new_path: '/memories/menu.md' })),
    ).not.toMatch(/^error/);
    expect((await readdir(root)).sort()).toEqual([NFD_FOLDER, 'menu.md'].sort());
    expect(text(await memory.execute({ command: 'delete', path: inner }))).not.toMatch(/^error/);
    // The file is gone, and its folder with it (the tool prunes the parents a delete empties).
    expect(await readdir(root)).toEqual(['menu.md']);
  });

  it('prefers the exact NFC name when both spellings are on disk, and lists it once', async () => {
    await writeFile(join(root, NFC_FILE), 'the NFC one\n');
    const memory = tool();
    expect(text(await memory.execute({ command: 'view', path: `/memories/${NFC_FILE}` }))).toContain('the NFC one');
    const listing = text(await memory.execute({ command: 'view', path: '/memories' }));
    expect(listing.split(`/memories/${NFC_FILE}`).length - 1).toBe(1);
  });
});
