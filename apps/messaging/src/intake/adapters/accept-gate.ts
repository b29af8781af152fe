/**
 * An integrator's call before background work in this process: while a sharing is being
 * accepted, the dispatch consumer starts no new batch, so the accept's normalization, writes and
 * publish do not queue behind batches of earlier sharings on the one event loop and database.
 * A batch waits at most `maxWaitMs` for accepts to finish, so a stream of them cannot stall
 * dispatch (the four-tier limit keeps such streams short anyway).
 */
export interface AcceptGate {
  /** Runs an accept; batches wait while any runs. */
  during<T>(accept: () => Promise<T>): Promise<T>;
  /** Resolves once no accept runs, or after `maxWaitMs`. */
  clear(): Promise<void>;
}

export function acceptGate(maxWaitMs = 1_000): AcceptGate {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    async during(accept) {
      active++;
      try {
        return await accept();
      } finally {
        if (--active === 0) for (const release of waiting.splice(0)) release();
      }
    },
    clear() {
      if (active === 0) return Promise.resolve();
      return new Promise((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, maxWaitMs).unref();
      });
    },
  };
}
