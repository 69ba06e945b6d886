/** A request as a stand-in API server saw it. */
export type ApiRequest = { method: string; path: string; headers: Record<string, string> };

export type ApiServer = {
  url: string;
  requests: ApiRequest[];
  /** The next request to a path that includes `pathPart` fails with this status (once). */
  failNext(pathPart: string, status: number): void;
  stop(): void;
};

/**
 * Bun.serve on 127.0.0.1 for a local stand-in of an external REST API: every request is recorded,
 * and failures set with failNext are answered by `failure` before `handle` sees the request.
 */
export function serveApi(handle: (req: Request, url: URL) => Response | Promise<Response>, failure: (status: number) => Response): ApiServer {
  const requests: ApiRequest[] = [];
  const failures: { part: string; status: number }[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    maxRequestBodySize: 2 ** 40,
    fetch(req) {
      const url = new URL(req.url);
      requests.push({ method: req.method, path: url.pathname + url.search, headers: Object.fromEntries(req.headers) });
      const fail = failures.findIndex((f) => url.pathname.includes(f.part));
      if (fail >= 0) return failure((failures.splice(fail, 1)[0] as { status: number }).status);
      return handle(req, url);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, failNext: (part, status) => failures.push({ part, status }), stop: () => server.stop(true) };
}
