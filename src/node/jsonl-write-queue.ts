/** A queue of writes per session. @internal */
export interface WriteQueue {
  /** Runs `task` after every earlier task of the same session has settled (fulfilled or rejected). */
  run<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
  /** Settles once every task queued so far has settled. */
  idle(): Promise<void>;
}

/**
 * A queue per session, so a store's writes to one file never interleave. A session's entry is
 * dropped once its queue is empty.
 *
 * @internal
 */
export function createWriteQueue(): WriteQueue {
  const queues = new Map<string, Promise<unknown>>();
  return {
    run<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
      const previous = queues.get(sessionId) ?? Promise.resolve();
      const next = previous.then(task, task);
      const settled = next.catch(() => undefined);
      queues.set(sessionId, settled);
      void settled.then(() => {
        if (queues.get(sessionId) === settled) queues.delete(sessionId);
      });
      return next;
    },
    async idle(): Promise<void> {
      await Promise.all([...queues.values()]);
    },
  };
}
