import { afterEach, describe, expect, spyOn, test } from 'bun:test';
import tls from 'node:tls';
import { fetchPage, pinned } from '../../../src/web/fetch-page.ts';

// a self-signed certificate for rebind.example: enough for a TLS server to see who connects and with what server name
const CERT = `-----BEGIN CERTIFICATE-----
MIIBozCCAUqgAwIBAgIUPtbih8trlsBW4S8oz1OfyTgV4aUwCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOcmViaW5kLmV4YW1wbGUwIBcNMjYxMTI4MTQ1MDM5WhgPMjEy
NjExMDQxNDUwMzlaMBkxFzAVBgNVBAMMDnJlYmluZC5leGFtcGxlMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAEt7XuT7wcwYQv8Mgt+i14S9nYkh2yqCRBEdWpGRsC
AhwGxPLABrO0uFNC/e8hA4nyKBnuznUx0tfs+LHfFIhFy6NuMGwwHQYDVR0OBBYE
FDMLIl9KsfefcbgpSKzrg2MTIagTMB8GA1UdIwQYMBaAFDMLIl9KsfefcbgpSKzr
g2MTIagTMA8GA1UdEwEB/wQFMAMBAf8wGQYDVR0RBBIwEIIOcmViaW5kLmV4YW1w
bGUwCgYIKoZIzj0EAwIDRwAwRAIgKY+weMKv1170C0SHDobvxTKBTzozYN9hPcwo
Qy73RcYCIGNKtAlf8agcIgQsgpM2Yq8XfDHBLawB3tPSMOybtQ24
-----END CERTIFICATE-----`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg5W1jnsL9eNAygT90
lJalXuBsMoJa0wq9TwCII6LX/rKhRANCAAS3te5PvBzBhC/wyC36LXhL2diSHbKo
JEER1akZGwICHAbE8sAGs7S4U0L97yEDifIoGe7OdTHS1+z4sd8UiEXL
-----END PRIVATE KEY-----`;

const closed = { allowPrivate: false, allowHosts: [] };
/** A resolver that answers as a rebinding name does at its first lookup: a public address. */
const publicFirst = async () => [{ address: '93.184.216.34', family: 4 }];

describe('pinned', () => {
  test('the connection goes to the checked address; over https the name stays the TLS server name', () => {
    const https = pinned(new URL('https://rebind.example:8443/a?b=1'), '93.184.216.34', 4);
    expect([https.target.href, https.serverName]).toEqual(['https://93.184.216.34:8443/a?b=1', 'rebind.example']);
    const http = pinned(new URL('http://rebind.example/a'), '2606:4700:4700::1111', 6);
    expect([http.target.href, http.serverName]).toEqual(['http://[2606:4700:4700::1111]/a', null]);
    expect(pinned(new URL('https://93.184.216.34/'), '93.184.216.34', 4).serverName).toBeNull();
  });
});

describe('fetchPage over https', () => {
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
  });

  test('a name checked at a public address is fetched from that address, not from what it resolves to next (localhost)', async () => {
    const seen: { url: string; init: RequestInit & { tls?: { serverName?: string } } }[] = [];
    const spy = spyOn(globalThis, 'fetch').mockImplementation((async (input: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(input), init: init ?? {} });
      return new Response('hello', { headers: { 'content-type': 'text/plain' } });
    }) as typeof fetch);
    restore = () => spy.mockRestore();
    const page = await fetchPage(new URL('https://localhost:8443/state'), { policy: closed, maxBytes: 1024, timeoutMs: 5000, lookupHost: publicFirst });
    expect(new TextDecoder().decode(page.body)).toBe('hello');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('https://93.184.216.34:8443/state');
    expect(seen[0]?.init.tls?.serverName).toBe('localhost');
    expect(new Headers(seen[0]?.init.headers).get('host')).toBe('localhost:8443');
  });

  test('a real TLS connection reaches the checked address with the name as SNI', async () => {
    const hellos: string[] = [];
    const server = tls.createServer({
      cert: CERT,
      key: KEY,
      SNICallback: (name, cb) => {
        hellos.push(name);
        cb(null, tls.createSecureContext({ cert: CERT, key: KEY }));
      },
    });
    server.on('secureConnection', (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'));
    server.on('tlsClientError', () => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      // the name may be local here (it is listed): what matters is where the connection goes and what it names;
      // the system resolver does not know rebind.example, so only a pinned connection reaches the server
      const lookupHost = async (host: string) => (host === 'rebind.example' ? [{ address: '127.0.0.1', family: 4 }] : []);
      const err = await fetchPage(new URL(`https://rebind.example:${port}/`), { policy: { allowPrivate: false, allowHosts: ['rebind.example'] }, maxBytes: 1024, timeoutMs: 5000, lookupHost }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      // the certificate is self-signed: the client refuses it, after the server has seen the hello
      expect(err?.message).toBe(`rebind.example:${port} is not reachable (self signed certificate)`);
      expect(hellos).toEqual(['rebind.example']);
    } finally {
      server.close();
    }
  });
});
