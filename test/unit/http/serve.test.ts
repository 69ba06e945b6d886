// The door of every svc server: Host, percent-encoding, token, errors outside the app, the port,
// and a stop that closes what the server owns once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { UnavailableError } from '../../../src/core/errors.ts';
import { type Listening, serveHttp } from '../../../src/http/serve.ts';
import { rawHttp } from '../../support/raw-http.ts';

let server: Listening;
let closed = 0;
beforeAll(() => {
  server = serveHttp(
    (req) => {
      if (new URL(req.url).pathname === '/throws') throw new Error('broken');
      return Response.json({ path: new URL(req.url).pathname });
    },
    { host: '127.0.0.1', port: 0, portHint: 'pick another', name: 'test', token: 's3cret', close: () => closed++ },
  );
});
afterAll(() => server.stop());

const auth = { authorization: 'Bearer s3cret' };

describe('the door', () => {
  test('a loopback server answers loopback names on any port (an SSH tunnel), nothing else', async () => {
    for (const host of [`127.0.0.1:${server.port}`, 'localhost:9999', '[::1]', '127.0.0.1']) expect((await rawHttp(server.port, 'GET', '/a', { host, ...auth })).status).toBe(200);
    for (const host of ['evil.example', `evil.example:${server.port}`, '127.0.0.1.evil.example', '']) {
      const res = await rawHttp(server.port, 'GET', '/a', { host, ...auth });
      expect(res.status).toBe(421);
      expect(JSON.parse(res.body).error).toContain('127.0.0.1');
    }
  });

  test('the token is required, compared whole', async () => {
    const host = `127.0.0.1:${server.port}`;
    for (const bad of [{}, { authorization: 'Bearer s3cre' }, { authorization: 'Bearer s3cretX' }, { authorization: 's3cret' }] as Record<string, string>[]) {
      const res = await rawHttp(server.port, 'GET', '/a', { host, ...bad });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).error).toContain('Authorization: Bearer');
    }
  });

  test('a path whose percent-encoding does not decode is 400 before any handler', async () => {
    const res = await rawHttp(server.port, 'GET', '/a%E0%A4%A', { host: `127.0.0.1:${server.port}`, ...auth });
    expect(res).toEqual({ status: 400, body: JSON.stringify({ error: 'malformed percent-encoding in the path' }) });
  });

  test('an error thrown outside an app is 500 as JSON', async () => {
    const res = await rawHttp(server.port, 'GET', '/throws', { host: `127.0.0.1:${server.port}`, ...auth });
    expect(res).toEqual({ status: 500, body: JSON.stringify({ error: 'internal error: broken' }) });
  });

  test('a port in use is one line naming the fix, and what the server owns is closed', () => {
    let closedHere = 0;
    const second = () => serveHttp(() => new Response(), { host: '127.0.0.1', port: server.port, portHint: 'pick another with --port', name: 'test', close: () => closedHere++ });
    expect(second).toThrow(UnavailableError);
    expect(second).toThrow(`port ${server.port} on 127.0.0.1 is in use`);
    expect(closedHere).toBe(2);
  });

  test('stop closes once, however often it is called', async () => {
    const s = serveHttp(() => new Response('x'), { host: '127.0.0.1', port: 0, portHint: '', name: 'test', close: () => closed++ });
    const before = closed;
    await Promise.all([s.stop(), s.stop()]);
    await s.stop();
    expect(closed).toBe(before + 1);
    await expect(fetch(`${s.url}/`)).rejects.toThrow();
  });
});
