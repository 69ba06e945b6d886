/**
 * AWS Signature Version 4 for the one S3 call Bun's S3 client does not make: CopyObject onto the
 * same key to change its canned ACL (object-store promote). Header-signed, UNSIGNED-PAYLOAD.
 */
export type SigV4Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined };

function hmac(key: string | Uint8Array, data: string): Uint8Array {
  return new Bun.CryptoHasher('sha256', key).update(data).digest() as Uint8Array;
}

function hex(data: string): string {
  return new Bun.CryptoHasher('sha256').update(data).digest('hex');
}

/** RFC 3986 encoding of one path segment or query value, as S3 canonicalises it. */
export function awsEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The headers (Authorization included) for `method url` with `headers`, signed for service s3 in `region`. */
export function signS3(method: string, url: URL, headers: Record<string, string>, creds: SigV4Credentials, region: string, now = new Date(), payloadHash = 'UNSIGNED-PAYLOAD'): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const all: Record<string, string> = { ...headers, host: url.host, 'x-amz-date': amzDate, 'x-amz-content-sha256': payloadHash };
  if (creds.sessionToken) all['x-amz-security-token'] = creds.sessionToken;
  const lower = Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const names = Object.keys(lower).sort();
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [awsEncode(k), awsEncode(v)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [method, url.pathname, query, ...names.map((n) => `${n}:${lower[n]}`), '', names.join(';'), payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const signature = Buffer.from(hmac(key, toSign)).toString('hex');
  return { ...lower, authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` };
}
