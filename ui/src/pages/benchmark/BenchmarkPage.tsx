import { notBuilt } from '../not-built.tsx';

export const BenchmarkPage = notBuilt('Benchmark', 'Run the benchmark from the terminal: svc bench --help.');
