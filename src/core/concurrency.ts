/**
 * fn over every item with at most `limit` calls in flight, results in the items' order. A
 * rejection stops new calls from starting and is thrown once the calls already started settle, so
 * nothing keeps running behind the caller's back.
 */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed: { err: unknown } | null = null;
  const lane = async () => {
    while (failed === null && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T, i);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failed) throw (failed as { err: unknown }).err;
  return out;
}
