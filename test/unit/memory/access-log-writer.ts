// Appends events to a checkpoint's memory access log from its own process, then exits at once:
// `bun access-log-writer.ts <checkpoint> <writer> <count>`. Rotation follows SVC_MEMORY_ACCESS_LOG_MAX_MB.
import { AccessLog, writeEvent } from '../../../src/memory/access-log.ts';

const [dir, writer, count] = process.argv.slice(2);
const log = AccessLog.fromEnv({ ...process.env, SVC_CHECKPOINT_DIR: dir });
for (let i = 0; i < Number(count); i++) {
  log?.append([writeEvent({ node_id: `${writer}`, entry_id: `${writer}-${i}`, kind: 'node_scope', text: 'x'.repeat(150), metadata: { i } })]);
}
process.exit(0);
