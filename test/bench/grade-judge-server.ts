// The scripted judge of grade.bench.ts in a process of its own, as a model server is: its request
// parsing and answers do not share the grading process's event loop. Prints its URL, then serves
// until killed; every answer passes its leaf after CALL_MS (argv[2]).
import { startModelServer } from '../support/model-server.ts';

const callMs = Number(process.argv[2] ?? 100);
const server = startModelServer([], { respond: () => ({ text: JSON.stringify({ score: 1, explanation: 'shown', evidence: ['sort.js'] }), delayMs: callMs }) });
console.log(server.url);
