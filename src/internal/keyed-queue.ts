/**
 * A queue per key: `run(key, task)` starts `task` once every earlier task with the same key has
 * settled, so tasks on one key never overlap. A failed task does not stop the ones after it. Keys
 * are forgotten when their queue empties.
 *
 * @internal
 */
export function createKeyedQueue<K>(): <T>(key: K, task: () => Promise<T>) => Promise<T> {
  const tails = new Map<K, Promise<void>>();
  return <T>(key: K, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}
