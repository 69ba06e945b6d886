import { rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { InputError, TooLargeError } from '../core/errors.ts';
import { firstEvent } from '../ear/archive.ts';
import { MAX_MANIFEST_BYTES } from '../ear/manifest.ts';
import type { ArtifactStore } from './storage.ts';
import { type Received, receiveUpload } from './upload.ts';

/** Other small fields a client adds are ignored, up to this many parts in all. */
const MAX_PARTS = 16;
/** metadata and visibility are short; manifest may be as large as a manifest.lock is allowed to be. */
const MAX_FIELD_BYTES = MAX_MANIFEST_BYTES;

export type MultipartUpload = { received: Received; fields: ReadonlyMap<string, string> };

/**
 * Receives `multipart/form-data` as the ARI clients send it: the `bundle` file part is streamed
 * through the same path as a raw upload (never held in memory: the parser waits while it is
 * written), the text fields are kept. A form with no bundle, two, an oversized field or too many
 * parts is refused, and a body cut off midway leaves nothing: the staging directory of a bundle
 * received before the refusal is removed.
 */
export function receiveMultipart(store: ArtifactStore, req: Request, opts: { maxBytes: number; signal: AbortSignal }): Promise<MultipartUpload> {
  const body = req.body;
  if (body === null) return Promise.reject(new InputError('empty upload: send the form with its bundle part'));
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': req.headers.get('content-type') ?? '' }, limits: { files: 1, parts: MAX_PARTS, fieldSize: MAX_FIELD_BYTES } });
  } catch (err) {
    return Promise.reject(new InputError(`the multipart form cannot be read: ${(err as Error).message}`));
  }
  const reader = body.getReader();
  const fields = new Map<string, string>();
  let bundle: Promise<Received> | null = null;
  let file: Readable | null = null;
  let failure: Error | null = null;

  return new Promise<MultipartUpload>((resolve, reject) => {
    const fail = (err: Error) => {
      failure ??= err;
      void reader.cancel().catch(() => {});
      // the bundle being written ends too, or its writer would wait for bytes that never come
      file?.destroy(err);
      finish();
    };
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      const pending = bundle ?? Promise.reject(new InputError("the form has no 'bundle' file part", 'send the bundle.tar.gz as the file field bundle'));
      pending.then(
        (received) => {
          if (failure === null) return resolve({ received, fields });
          rmSync(received.staging, { recursive: true, force: true });
          reject(failure);
        },
        (err: Error) => reject(failure ?? err),
      );
    };
    parser.on('file', (name, stream) => {
      if (name !== 'bundle') {
        stream.resume();
        return;
      }
      file = stream;
      bundle = receiveUpload(store, Readable.toWeb(stream) as ReadableStream<Uint8Array>, { maxBytes: opts.maxBytes, expectedSha: null, signal: opts.signal });
      // the parser waits for the file to be read; a failed write stops the form
      bundle.catch((err: Error) => fail(err));
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new TooLargeError(`the form field ${name} is over ${MAX_FIELD_BYTES} bytes`));
      fields.set(name, value);
    });
    parser.on('filesLimit', () => fail(new InputError('the form holds more than one file', 'send one bundle part')));
    parser.on('partsLimit', () => fail(new InputError(`the form has more than ${MAX_PARTS} parts`)));
    parser.on('error', (err: Error) => fail(new InputError(`the multipart form cannot be read: ${err.message}`)));
    parser.on('close', finish);
    // the body is handed to the parser a chunk at a time, waiting whenever the parser is full
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || failure) break;
          if (!parser.write(value)) await firstEvent(parser, ['drain', 'close', 'error']);
        }
        if (!failure) parser.end();
      } catch (err) {
        fail(new InputError(`the upload ended early: ${(err as Error).message}`));
      }
    })();
  });
}
