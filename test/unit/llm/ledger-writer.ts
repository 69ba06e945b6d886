// A separate process appending to a checkpoint's cost ledger: `ledger-writer.ts <checkpoint> <count> <phase>`.
import { CostLedger, costRecordOf } from '../../../src/llm/ledger.ts';

const [dir, count, phase] = process.argv.slice(2);
if (!dir || !count || !phase) throw new Error('usage: ledger-writer.ts <checkpoint> <count> <phase>');
const ledger = new CostLedger(dir, null);
for (let i = 0; i < Number(count); i++) {
  const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
  ledger.append(costRecordOf({ role: 'run', meta: { phase }, model: 'm', backend: 'providera', usage, price: { costUsd: 0.001, source: 'override' }, latencyMs: 1 }));
}
