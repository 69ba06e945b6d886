/**
 * Memoizes a check for one turn of the event loop. Every request handled in a turn had arrived
 * before the turn began, so a check made during the turn already sees any file write such a
 * request could depend on; later requests get a fresh check. Only the key tells calls apart. Under load many requests share one
 * turn, and so one set of stat calls.
 */
export function memoForTurn<K, V, A extends unknown[] = []>(compute: (key: K, ...rest: A) => V): (key: K, ...rest: A) => V {
  const memo = new Map<K, V>();
  let clearing = false;
  return (key, ...rest) => {
    if (memo.has(key)) return memo.get(key) as V;
    const value = compute(key, ...rest);
    memo.set(key, value);
    if (!clearing) {
      clearing = true;
      setImmediate(() => {
        memo.clear();
        clearing = false;
      });
    }
    return value;
  };
}
