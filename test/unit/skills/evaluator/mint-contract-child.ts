// One make_metric_spec call in a process of its own, so that several race for the first contract:
// it says it is ready, waits for the go file, calls the tool and prints the result as JSON.
import { existsSync, writeFileSync } from 'node:fs';
import { makeMetricSpec } from '../../../../src/skills/evaluator/make-metric-spec.ts';

const [goFile, text] = process.argv.slice(2) as [string, string];
writeFileSync(`${goFile}.ready.${process.pid}`, '');
while (!existsSync(goFile)) await Bun.sleep(1);
const result = await makeMetricSpec.run({ experiment_text: text }, { signal: new AbortController().signal, env: process.env });
process.stdout.write(JSON.stringify(result));
