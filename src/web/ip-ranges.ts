import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which kind of address not on the public internet an IP address is, or null when it is public.
 * IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4
 * 2002::/16, the old compatible ::a.b.c.d) are judged by that address, so a loopback cannot be
 * reached by spelling it in IPv6.
 */
export function nonPublicRange(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  // a zone index (fe80::1%eth0) only exists for link-local addresses
  if (bare.includes('%')) return 'link-local';
  if (isIPv4(bare)) return ipv4Range(ipv4Bytes(bare));
  if (isIPv6(bare)) return ipv6Range(ipv6Bytes(bare));
  return 'not an IP address';
}

/** [first octet(s) as a prefix, prefix length in bits, name], most specific first where they overlap. */
const V4: readonly (readonly [number[], number, string])[] = [
  [[0], 8, 'unspecified ("this network")'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'shared (carrier-grade NAT)'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2], 24, 'documentation'],
  [[192, 88, 99], 24, 'reserved (6to4 relay)'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'benchmarking'],
  [[198, 51, 100], 24, 'documentation'],
  [[203, 0, 113], 24, 'documentation'],
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved'],
];

function ipv4Range(b: number[]): string | null {
  for (const [prefix, bits, name] of V4) if (matches(b, prefix, bits)) return name;
  return null;
}

function ipv6Range(b: number[]): string | null {
  const embedded = (at: number) => ipv4Range(b.slice(at, at + 4));
  if (b.every((x) => x === 0)) return 'unspecified';
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return embedded(12);
  if (b.slice(0, 12).every((x) => x === 0)) return embedded(12) ?? 'IPv4-compatible (deprecated)';
  if (matches(b, [0x00, 0x64, 0xff, 0x9b], 32) && b.slice(4, 12).every((x) => x === 0)) return embedded(12);
  if (matches(b, [0x20, 0x02], 16)) return embedded(2);
  if (matches(b, [0xfe, 0x80], 10)) return 'link-local';
  if (matches(b, [0xfe, 0xc0], 10)) return 'site-local (deprecated)';
  if (matches(b, [0xfc], 7)) return 'unique local (private)';
  if (matches(b, [0xff], 8)) return 'multicast';
  if (matches(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return 'documentation';
  if (matches(b, [0x01, 0x00], 16) && b.slice(2, 8).every((x) => x === 0)) return 'discard';
  return null;
}

/** True when the first `bits` bits of `bytes` equal those of `prefix`. */
function matches(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(a: string): number[] {
  return a.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (node:net has checked its form), a trailing dotted quad included. */
function ipv6Bytes(a: string): number[] {
  let text = a.toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad) {
    const [w, x, y, z] = ipv4Bytes(quad) as [number, number, number, number];
    text = `${text.slice(0, -quad.length)}${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return all.flatMap((g) => {
    const v = Number.parseInt(g, 16);
    return [v >> 8, v & 0xff];
  });
}
