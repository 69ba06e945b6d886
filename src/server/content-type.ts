const CONTENT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
};

/** The content type of an asset of the dashboard, by its name's extension. */
export function contentType(name: string): string {
  return CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
}
