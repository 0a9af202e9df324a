/**
 * A bounded memory of recent answers, least recently used evicted first: what lets `/settle` take what
 * `/verify` computed for the same payment (recovered signers, typed-data digests) without an unbounded cache
 * that junk requests could grow. Only answers are kept; a caller never remembers a failure, so junk cannot
 * push real entries out faster than real traffic.
 */

/** Remembered answers by key. */
export type RecentAnswers<V> = {
  /** The remembered answer for `key` (and marks it recently used), or `undefined`. */
  get: (key: string) => V | undefined;
  /** Remembers `value` for `key`, evicting the least recently used answer past the capacity. */
  remember: (key: string, value: V) => void;
};

/**
 * Creates a memory with room for `capacity` answers.
 *
 * @example
 * const signers = createRecentAnswers<Address>(4096);
 * signers.remember(key, signer);
 */
export function createRecentAnswers<V>(capacity: number): RecentAnswers<V> {
  const remembered = new Map<string, V>();
  return {
    get: (key) => {
      const known = remembered.get(key);
      if (known === undefined) return undefined;
      // Re-inserting moves the entry to the young end of the Map's insertion order.
      remembered.delete(key);
      remembered.set(key, known);
      return known;
    },
    remember: (key, value) => {
      remembered.set(key, value);
      if (remembered.size <= capacity) return;
      const oldest = remembered.keys().next();
      if (!oldest.done) remembered.delete(oldest.value);
    },
  };
}
