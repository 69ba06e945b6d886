// Runs src/cli/memory-serve.ts the way `svc memory serve` runs it, for tests that need the server in
// a child process (killing it, signals): `bun test/support/memory-serve.ts --port 0 --data-dir DIR`.
import { dispatch } from '../../src/cli/dispatch.ts';
import serve from '../../src/cli/memory-serve.ts';

process.exitCode = await dispatch({ serve: { description: 'memory server', load: async () => serve } }, ['serve', ...process.argv.slice(2)], () => '', 'test');
