// The app every svc server is built from: bodies read to their route's limit, forms, optional
// bodies, strict schemas, one status per error, 405 with Allow.
import { describe, expect, test } from 'bun:test';
import { Type as T } from '@sinclair/typebox';
import { ConflictError, InputError, SvcError } from '../../../src/core/errors.ts';
import { httpApp } from '../../../src/http/app.ts';
import { HttpError, MAX_JSON_BODY } from '../../../src/http/response.ts';

const Body = T.Object({ n: T.Integer() });
const seen: unknown[] = [];

const app = httpApp({ name: 'test', bodies: { '/small': { limit: 16 }, '/stream': { read: 'stream' }, '/optional': { optional: true }, '/form': { read: 'form', limit: 1024 }, '/json': { read: 'json' }, '/bytes': { limit: 64 * 1024 * 1024 } } })
  .post('/json', ({ body }) => ({ got: body }), { body: Body })
  .post('/small', ({ body }) => {
    seen.push(body);
    return { got: body };
  })
  .post('/stream', async ({ request, body }) => ({ body, text: await request.text() }))
  .post('/optional', ({ body }) => ({ got: body }), { body: T.Object({ flag: T.Optional(T.Boolean()) }) })
  .post('/form', ({ body }) => ({ fields: [...(body as FormData).keys()] }))
  .post('/text', ({ body }) => ({ got: body }))
  .post('/bytes', ({ body }) => ({ bytes: (body as Uint8Array).byteLength }))
  .get('/thing/:id', ({ params }) => ({ id: params.id }))
  .delete('/thing/:id', () => ({ deleted: true }))
  .get('/fail/:kind', ({ params }): never => {
    if (params.kind === 'input') throw new InputError('bad input', 'do this');
    if (params.kind === 'conflict') throw new ConflictError('taken');
    if (params.kind === 'http') throw new HttpError(418, 'a teapot');
    if (params.kind === 'svc') throw new SvcError('an svc error of no kind');
    throw new Error('boom');
  });

async function call(method: string, path: string, body?: string | ReadableStream | FormData | null, headers: Record<string, string> = {}) {
  const res = await app.handle(new Request(`http://localhost${path}`, { method, body, headers }));
  return { status: res.status, allow: res.headers.get('allow'), body: (await res.json()) as Record<string, unknown> };
}

const asJson = { 'content-type': 'application/json' };

describe('bodies', () => {
  test('a JSON body is checked by its schema', async () => {
    expect(await call('POST', '/json', '{"n": 3}', asJson)).toMatchObject({ status: 200, body: { got: { n: 3 } } });
    expect(await call('POST', '/json', '{"n": "3"}', asJson)).toMatchObject({ status: 400, body: { error: 'body.n: Expected integer' } });
    // an unknown field is refused, not dropped: a misspelt key must not pass as absent
    expect(await call('POST', '/json', '{"n": 3, "m": 1}', asJson)).toMatchObject({ status: 400, body: { error: 'body.m: Unexpected property' } });
    // neither an array nor a string is taken for an object
    for (const wrong of ['[1]', '"n"', 'null']) expect((await call('POST', '/json', wrong, asJson)).status).toBe(400);
  });

  test('malformed JSON and a missing body are 400', async () => {
    expect(await call('POST', '/json', '{"n": ', asJson)).toMatchObject({ status: 400, body: { error: expect.stringContaining('malformed request body') } });
    expect(await call('POST', '/json', '', asJson)).toMatchObject({ status: 400, body: { error: 'body: Expected object' } });
    expect((await call('POST', '/json')).status).toBe(400);
  });

  test("a body over the route's limit is 413 whether declared or streamed, and never reaches the handler", async () => {
    seen.length = 0;
    expect(await call('POST', '/small', JSON.stringify({ text: 'x'.repeat(64) }), asJson)).toMatchObject({ status: 413, body: { error: expect.stringContaining('too large') } });
    const chunks = [new TextEncoder().encode('{"a": "'), new TextEncoder().encode('x'.repeat(64)), new TextEncoder().encode('"}')];
    const stream = new ReadableStream({ pull: (c) => (chunks.length ? c.enqueue(chunks.shift()) : c.close()) });
    expect((await call('POST', '/small', stream, asJson)).status).toBe(413);
    expect(seen).toEqual([]);
    expect(await call('POST', '/small', '{"a": 1}', asJson)).toMatchObject({ status: 200, body: { got: { a: 1 } } });
    // any other route takes an ordinary JSON body
    expect((await call('POST', '/json', `{"n": 1, "pad": "${'x'.repeat(MAX_JSON_BODY)}"}`, asJson)).status).toBe(413);
  });

  test('a stream route reads its body itself', async () => {
    expect(await call('POST', '/stream', 'raw bytes', { 'content-type': 'application/gzip' })).toMatchObject({ status: 200, body: { body: null, text: 'raw bytes' } });
  });

  test('an optional body may be absent; one that is sent is still checked', async () => {
    expect(await call('POST', '/optional')).toMatchObject({ status: 200, body: { got: {} } });
    expect(await call('POST', '/optional', '{"flag": true}', asJson)).toMatchObject({ status: 200, body: { got: { flag: true } } });
    expect((await call('POST', '/optional', '{"flag": "yes"}', asJson)).status).toBe(400);
    expect((await call('POST', '/optional', '[1]', asJson)).status).toBe(400);
  });

  test('a form route takes multipart/form-data and nothing else', async () => {
    const form = new FormData();
    form.append('a', new Blob(['1']), 'a.txt');
    expect(await call('POST', '/form', form)).toMatchObject({ status: 200, body: { fields: ['a'] } });
    expect(await call('POST', '/form', '{}', asJson)).toMatchObject({ status: 400, body: { error: expect.stringContaining('expected a multipart/form-data body, got application/json') } });
    expect(await call('POST', '/form', 'junk', { 'content-type': 'multipart/form-data; boundary=zz' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('malformed multipart/form-data body') } });
  });

  test("a route that reads JSON reads it whatever type it is declared as (curl -d declares a form)", async () => {
    expect(await call('POST', '/json', '{"n": 4}', { 'content-type': 'application/x-www-form-urlencoded' })).toMatchObject({ status: 200, body: { got: { n: 4 } } });
  });

  test('an empty form is 400, not an error of the handler', async () => {
    expect(await call('POST', '/form', null, { 'content-type': 'multipart/form-data; boundary=zz' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('the form is empty') } });
  });

  test('bytes are bytes, whatever their size: the nesting check does not walk them', async () => {
    expect(await call('POST', '/bytes', new Uint8Array(32 * 1024 * 1024) as unknown as string, { 'content-type': 'application/octet-stream' })).toMatchObject({ status: 200, body: { bytes: 32 * 1024 * 1024 } });
  });

  test('text is text', async () => {
    expect(await call('POST', '/text', 'hello', { 'content-type': 'text/plain' })).toMatchObject({ status: 200, body: { got: 'hello' } });
  });

  test('a body nested deeper than the limit is refused before validation', async () => {
    expect(await call('POST', '/small', null, asJson)).toMatchObject({ status: 200 });
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    expect(await call('POST', '/text', deep, asJson)).toMatchObject({ status: 400, body: { error: expect.stringContaining('nested more than') } });
  });
});

describe('routes and errors', () => {
  test('an unknown path is 404; a known path with another method is 405 naming the methods', async () => {
    expect(await call('GET', '/nothing')).toMatchObject({ status: 404, body: { error: 'no such endpoint: GET /nothing' } });
    expect(await call('PUT', '/thing/1')).toMatchObject({ status: 405, allow: 'DELETE, GET', body: { error: 'PUT is not allowed on /thing/1: use DELETE or GET' } });
    // a trailing slash is the same path to the router, and so to the answer
    expect(await call('PUT', '/thing/1/')).toMatchObject({ status: 405, allow: 'DELETE, GET' });
  });

  test('each error class has its status; an unexpected one is 500 without a stack', async () => {
    expect(await call('GET', '/fail/input')).toMatchObject({ status: 400, body: { error: 'bad input (do this)' } });
    expect(await call('GET', '/fail/conflict')).toMatchObject({ status: 409 });
    expect(await call('GET', '/fail/http')).toMatchObject({ status: 418, body: { error: 'a teapot' } });
    expect((await call('GET', '/fail/svc')).status).toBe(500);
    const boom = await call('GET', '/fail/other');
    expect(boom).toMatchObject({ status: 500, body: { error: 'internal error: boom' } });
    expect(JSON.stringify(boom.body)).not.toContain('app.test.ts');
  });

  test("a server answering as Letta does: {detail}, 422 for a schema's refusal, JSON bodies only", async () => {
    const letta = httpApp({ name: 'letta', errorKey: 'detail', validationStatus: 422, jsonOnly: true }).post('/x', ({ body }) => body, { body: Body });
    const send = async (body: string, type: string) => {
      const res = await letta.handle(new Request('http://localhost/x', { method: 'POST', body, headers: { 'content-type': type } }));
      return { status: res.status, body: await res.json() };
    };
    expect(await send('{"n": "x"}', 'application/json')).toEqual({ status: 422, body: { detail: 'body.n: Expected integer' } });
    expect(await send('{"n": 1}', 'text/plain')).toEqual({ status: 415, body: { detail: 'the body must be sent as Content-Type: application/json' } });
    expect(await send('{"n": 1}', 'application/json; charset=utf-8')).toEqual({ status: 200, body: { n: 1 } });
  });
});
