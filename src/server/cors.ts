/**
 * CORS as the spec asks (A2): every origin may call the dashboard, and a preflight anywhere under
 * /api is answered 204 with what it asked for. No credentials are allowed: the API uses none
 * (the optional token travels in a header the page sets itself).
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

/** The origin header for an ordinary answer to a cross-origin request. */
export function allowOrigin(req: Request, res: Response): Response {
  const origin = req.headers.get('origin');
  if (origin === null || res.headers.has('access-control-allow-origin')) return res;
  try {
    res.headers.set('access-control-allow-origin', origin);
    res.headers.append('vary', 'Origin');
    return res;
  } catch {
    // immutable headers (a fetched or static response): copy once
    const copy = new Response(res.body, res);
    copy.headers.set('access-control-allow-origin', origin);
    return copy;
  }
}
