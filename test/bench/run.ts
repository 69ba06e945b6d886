// Runs every test/bench/*.bench.ts in turn, or only those named (`run.ts review paper` runs
// review.bench.ts and paper.bench.ts). Each prints its own figures as ratios to a baseline.
const all = [...new Bun.Glob('*.bench.ts').scanSync(import.meta.dir)].sort();
const asked = process.argv.slice(2).map((a) => a.replace(/^.*\//, '').replace(/(\.bench)?(\.ts)?$/, '.bench.ts'));
const unknown = asked.filter((f) => !all.includes(f));
if (unknown.length > 0) throw new Error(`no such benchmark: ${unknown.join(', ')} (there are ${all.join(', ')})`);
const files = asked.length > 0 ? asked : all;
for (const f of files) {
  console.log(`\n== ${f}`);
  await import(`./${f}`);
}
