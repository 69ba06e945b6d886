// One client transfer in a process of its own, so that its peak memory is the transfer's alone:
// bun registry-client.ts upload|download <url> <token> <file> [<id>]; prints JSON {ms, peak_mb, result}.
import { readFileSync } from 'node:fs';
import { RegistryClient } from '../../src/registry/client.ts';

const [op, url, token, file, id] = process.argv.slice(2) as [string, string, string, string, string | undefined];
const client = new RegistryClient({ url, token });
const t0 = performance.now();
const result = op === 'upload' ? await client.upload(file) : await client.download(id as string, file);
const ms = performance.now() - t0;
const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
console.log(JSON.stringify({ ms, peak_mb: peak ? Number(peak[1]) / 1024 : null, result }));
