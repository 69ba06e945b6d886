import { statOrNull } from '../../core/paths.ts';
import { BackendError } from './errors.ts';

/** The tarball's size, failing as `invalid` when it is not a readable file. */
export function tarballSize(path: string): number {
  const st = statOrNull(path);
  if (!st) throw new BackendError('invalid', `bundle tarball ${path} does not exist`, 'curate and build the bundle first');
  if (!st.isFile()) throw new BackendError('invalid', `bundle tarball ${path} is not a file`);
  return st.size;
}

/** The tarball's bytes as a stream, hashed on the way: `digest()` is valid once the stream has ended. */
export function hashingStream(path: string): { chunks: AsyncIterable<Uint8Array>; digest(): string } {
  const hasher = new Bun.CryptoHasher('sha256');
  let done: string | null = null;
  async function* chunks(): AsyncIterable<Uint8Array> {
    for await (const chunk of Bun.file(path).stream()) {
      hasher.update(chunk);
      yield chunk;
    }
    done = hasher.digest('hex');
  }
  return {
    chunks: chunks(),
    digest: () => {
      if (done === null) throw new Error('tarball stream not finished');
      return done;
    },
  };
}
