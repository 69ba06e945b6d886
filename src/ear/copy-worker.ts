// Worker thread of copyAllHashed: copies and hashes one file per message, synchronously (a worker
// may block), and answers with the digest or the error's message.
import { copyHashedSync, type CopyJob, type CopyReply } from './hash-copy.ts';

declare const self: Worker;

// the binary starts with the JIT held back (build.ts); a worker hashes for as long as it lives
Bun.unsafe.setJITPolicy(1);

self.onmessage = (e: MessageEvent<CopyJob & { i: number }>) => {
  const { i, from, to } = e.data;
  let reply: CopyReply;
  try {
    reply = { i, ...copyHashedSync(from, to) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // the system's reason without the paths, which the caller names in its own terms
    reply = { i, error: e?.code && e.syscall ? `${e.code}: ${e.message.split(',')[0]?.replace(`${e.code}: `, '')}` : String(e?.message ?? err), ...(e?.code ? { code: e.code } : {}) };
  }
  self.postMessage(reply);
};
