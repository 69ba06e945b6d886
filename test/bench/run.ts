// Runs every test/bench/*.bench.ts in turn. Each prints its own figures as ratios to a baseline.
const files = [...new Bun.Glob('*.bench.ts').scanSync(import.meta.dir)].sort();
for (const f of files) {
  console.log(`\n== ${f}`);
  await import(`./${f}`);
}
