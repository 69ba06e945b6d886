/**
 * CORS, for a server that lets some pages of other origins read its answers (the dashboard: a
 * loopback or listed origin, or a page carrying the token). A preflight carries no data and is
 * answered with what it asked for; no credentials are allowed (the token travels in a header the
 * page sets itself). The other servers give no page consent: they send no CORS headers at all.
 */
export function preflight(req: Request): Response {
  const headers: Record<string, string> = {
    'access-control-allow-origin': req.headers.get('origin') ?? '*',
    'access-control-allow-methods': req.headers.get('access-control-request-method') ?? 'GET, POST, OPTIONS',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
  const asked = req.headers.get('access-control-request-headers');
  if (asked) headers['access-control-allow-headers'] = asked;
  return new Response(null, { status: 204, headers });
}

/** The origin header for an ordinary answer to a cross-origin request whose page may read it (`readable`). */
export function allowOrigin(req: Request, res: Response, readable: boolean): Response {
  const origin = req.headers.get('origin');
  if (origin === null || !readable || res.headers.has('access-control-allow-origin')) return res;
  try {
    res.headers.set('access-control-allow-origin', origin);
    res.headers.append('vary', 'Origin');
    return res;
  } catch {
    // immutable headers (a fetched or static response): copy once
    const copy = new Response(res.body, res);
    copy.headers.set('access-control-allow-origin', origin);
    copy.headers.append('vary', 'Origin');
    return copy;
  }
}
