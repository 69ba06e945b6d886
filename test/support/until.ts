/** Waits for `read` to give a truthy value and returns it; past `ms` it fails naming `what`. */
export async function until<T>(what: string, read: () => T | null | undefined | false | Promise<T | null | undefined | false>, ms = 20_000, everyMs = 10): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}
