import type { ScholarPaper } from './scholar-server.ts';
import type { Step } from './model-server.ts';
import { draftIdea, messagesOf, promptName, synthesisValue } from './idea-model-responder.ts';

/**
 * The literature of the multi-agent idea engine's tests: four fields (cache tiling, sorting, GPU
 * memory, training stability) of three papers each, worded with the scripted embeddings model's
 * lexicon so that papers of one field lie near each other and the engine's authors find them.
 */
export const MA_CORPUS: ScholarPaper[] = [
  { id: '2401.01', title: 'Cache tiling for matrix multiplication', abstract: 'Blocking GEMM loops so tiles fit the L1 and L2 cache improves locality.' },
  { id: '2401.02', title: 'Autotuned tile sizes for small matrix products', abstract: 'Searching block sizes for matmul kernels on one core.' },
  { id: '2401.03', title: 'Register blocking in GEMM micro-kernels', abstract: 'Tiling matrix multiply into register blocks with SIMD and AVX.' },
  { id: '2401.04', title: 'Comparison counts of insertion sort', abstract: 'Ordering with fewer comparisons: binary insertion and merge insertion sorting.' },
  { id: '2401.05', title: 'Shell sort gap sequences', abstract: 'Gap ratios that minimise comparisons when sorting random arrays.' },
  { id: '2401.06', title: 'Adaptive sorting of nearly ordered data', abstract: 'Rank-aware sort order for presorted samples.' },
  { id: '2401.07', title: 'Out of memory errors in CUDA kernels', abstract: 'GPU memory allocation failures and OOM crashes on the device.' },
  { id: '2401.08', title: 'Heap fragmentation on accelerators', abstract: 'VRAM allocation exhausted by fragmentation in GPU kernels.' },
  { id: '2401.09', title: 'Memory-aware batch scheduling on GPUs', abstract: 'Choosing the batch size so the device memory is not exhausted.' },
  { id: '2401.10', title: 'Loss divergence under large learning rates', abstract: 'NaN loss and unstable training when the learning rate schedule has no warmup.' },
  { id: '2401.11', title: 'Gradient clipping against exploding gradients', abstract: 'Clipping the gradient norm keeps the loss from diverging.' },
  { id: '2401.12', title: 'Warmup schedules for stable training', abstract: 'Learning rate warmup and decay prevent instability and divergence.' },
];

export const MA_TOPIC = 'cache tiling for faster matrix multiplication';

const field = (text: string, re: RegExp): string => re.exec(text)?.[1] ?? '?';

/**
 * A deterministic idea model for both engines, answering from the request alone: the multi-agent
 * engine's proposal, turn and panel prompts (the idea names its team, author and round, the
 * critique what it read), and the built-in loop's prompts (for the fallbacks).
 */
export function ideaModelReply(body: Record<string, unknown>): Step {
  const system = messagesOf(body, 'system');
  const user = messagesOf(body, 'user');
  const name = promptName(body);
  const team = field(system, /research team (\d+) of/);
  const author = field(system, /You are (A\d+),/);
  const round = field(system, /discussion round (\d+) of/);
  const idea = (title: string) => ({ ...draftIdea(0, 1), title, description: `Tile the matrix multiplication loops for the cache (team ${team}).` });
  switch (name) {
    case 'idea/ma_propose':
      return { text: JSON.stringify({ idea: idea(`T${team} ${author} r${round}`) }) };
    case 'idea/ma_turn': {
      const before = /# The team's current idea\n(.*)\n/.exec(user)?.[1] ?? '?';
      const closest = /closest corpus papers to "[^"]*":\n1\. (.*) \(similarity/.exec(user)?.[1] ?? 'no check yet';
      return { text: JSON.stringify({ critique: `${author} on "${before}"; closest: ${closest}`, idea: idea(`T${team} ${author} r${round}`) }) };
    }
    case 'idea/ma_synthesis': {
      const n = Number(field(system, /final ideas of (\d+) research team/));
      const titles = [...user.matchAll(/^## Team \d+: (.*)$/gm)].map((m) => m[1] as string);
      const v = synthesisValue(Array.from({ length: n }, (_, i) => [0.5 + 0.1 * i, 0.8, 0.7]));
      return { text: JSON.stringify({ ...v, ideas: v.ideas.map((d, i) => ({ ...d, title: `Panel: ${titles[i]}` })) }) };
    }
    case 'idea/agent':
      return { text: JSON.stringify({ ideas: [draftIdea(1, 1), draftIdea(1, 2), draftIdea(1, 3)] }) };
    case 'idea/discussion':
      return { text: JSON.stringify({ critique: 'built-in loop critique', ideas: [draftIdea(1, 1, 1), draftIdea(1, 2, 1), draftIdea(1, 3, 1)] }) };
    case 'idea/synthesis': {
      const n = Number(field(system, /exactly (\d+) idea/));
      return { text: JSON.stringify(synthesisValue(Array.from({ length: n }, () => [0.5, 0.5, 0.5]))) };
    }
    default:
      return { text: `idea model: unknown prompt ${name}` };
  }
}
