/**
 * A fault of the stream between a skill server and its client, in one line. The SDK drops a line
 * that is not a protocol message and tells only its error handler, so the sender never hears of it.
 */
export function protocolProblem(err: Error): string {
  if (err instanceof SyntaxError) return `ignored a line that is not JSON (${err.message})`;
  if (err.name === 'ZodError') return 'ignored a line that is not a JSON-RPC message';
  return err.message.replace(/\s+/g, ' ').slice(0, 300);
}
