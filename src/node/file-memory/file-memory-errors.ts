import type { Stats } from 'node:fs';
import { StoreError } from '../../errors.js';

/**
 * The `code` of a Node.js system error (`ENOENT`, `ELOOP`, …), or `'unknown error'`.
 *
 * @internal
 */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

/**
 * A failure of the storage or of a precondition (`STORE_FAILED`).
 *
 * @internal
 */
export function fail(message: string, cause?: unknown): StoreError {
  return new StoreError({ message, code: 'STORE_FAILED', cause });
}

/**
 * A refusal to use a path that would break confinement (`INPUT_INVALID`).
 *
 * @internal
 */
export function refuse(message: string): StoreError {
  return new StoreError({ message, code: 'INPUT_INVALID' });
}

/**
 * Whether `info` is neither a regular file, a directory nor a symbolic link (a FIFO, socket or device).
 *
 * @internal
 */
export function isSpecial(info: Stats): boolean {
  return !info.isFile() && !info.isDirectory() && !info.isSymbolicLink();
}

/**
 * Refuses `path` because it is, or goes through, the symbolic link `link` (both virtual paths).
 *
 * @internal
 */
export function linkRefusal(path: string, link: string): StoreError {
  const through = link === path ? `${path} is a symbolic link` : `${path} goes through ${link}, a symbolic link`;
  return refuse(`${through}; the memory store does not follow links`);
}

/**
 * Refuses `path` because `entry` (a virtual path) is a FIFO, socket or device.
 *
 * @internal
 */
export function specialRefusal(path: string, entry: string): StoreError {
  return refuse(`${entry} is not a regular file or directory (a FIFO, socket or device); refusing to use ${path}`);
}
