import { expect, test } from 'bun:test';
import { objectKeys, objectStoreConfig, objectUrl } from '../../../../src/ear/backends/object-store.ts';
import { signS3 } from '../../../../src/ear/backends/sigv4.ts';

test('settings: bad input is invalid; env fallbacks', () => {
  expect(() => objectStoreConfig({}, {})).toThrow('no bucket');
  expect(() => objectStoreConfig({ bucket: 'b', endpoint: 'ftp://x' }, {})).toThrow('not an http(s) URL');
  expect(() => objectStoreConfig({ bucket: 'b', prefix: 'a/../b' }, {})).toThrow('. or ..');
  const c = objectStoreConfig({}, { SVC_OBJECT_STORE_BUCKET: 'b', AWS_REGION: 'eu-west-1', SVC_OBJECT_STORE_PREFIX: '/p/' });
  expect(c).toMatchObject({ bucket: 'b', region: 'eu-west-1', endpoint: 'https://s3.eu-west-1.amazonaws.com', prefix: 'p', creds: null });
});

test('keys and URLs', () => {
  const d = 'ab'.repeat(32);
  expect(objectKeys('p/q', d)).toEqual({ tarball: 'p/q/abababababababab/bundle.tar.gz', manifest: 'p/q/abababababababab/manifest.lock' });
  expect(objectKeys('', d).tarball).toBe('abababababababab/bundle.tar.gz');
  expect(() => objectKeys('p', 'nothex')).toThrow('not a SHA-256');
  const c = objectStoreConfig({ bucket: 'b', endpoint: 'http://h:1/', prefix: 'a b' }, {});
  expect(objectUrl(c, 'a b/x(1).tar.gz')).toBe('http://h:1/b/a%20b/x%281%29.tar.gz');
});

test('SigV4 signing matches the AWS documented GET Object example', () => {
  // docs.aws.amazon.com sig-v4-header-based-auth example: GET /test.txt, Range bytes=0-9
  const headers = signS3(
    'GET',
    new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
    { range: 'bytes=0-9' },
    { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    'us-east-1',
    new Date('2013-05-24T00:00:00Z'),
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  );
  expect(headers.authorization).toBe(
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  );
});
