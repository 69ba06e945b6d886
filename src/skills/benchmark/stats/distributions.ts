/**
 * The distribution functions the tests need, accurate to about 1e-14 relative in the range the
 * p-values live in: log-gamma (Lanczos), the regularized incomplete beta and gamma functions
 * (continued fractions evaluated by the modified Lentz method), and from them Student's t and
 * the standard normal tails.
 */

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITER = 10_000;

/** Regularized incomplete beta I_x(a, b), for a, b > 0 and 0 ≤ x ≤ 1. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - (logGamma(a) + logGamma(b) - logGamma(a + b));
  // The continued fraction converges fast for x below the mean; use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) above it.
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = nonZero(1 - ((a + b) * x) / (a + 1));
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITER; m++) {
    const m2 = 2 * m;
    const even = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 / nonZero(1 + even * d);
    c = nonZero(1 + even / c);
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 / nonZero(1 + odd * d);
    c = nonZero(1 + odd / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPS) return h;
  }
  return h;
}

/** Regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x ≥ 0. */
export function upperIncompleteGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const logFront = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) return 1 - Math.exp(logFront) * gammaSeries(a, x);
  return Math.exp(logFront) * gammaFraction(a, x);
}

function gammaSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n <= MAX_ITER; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum;
}

function gammaFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / nonZero(b);
  let h = d;
  for (let i = 1; i <= MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = 1 / nonZero(an * d + b);
    c = nonZero(b + an / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPS) break;
  }
  return h;
}

function nonZero(v: number): number {
  return Math.abs(v) < TINY ? TINY : v;
}

/** erfc(x) for x ≥ 0, as Q(1/2, x²): keeps full relative precision far into the tail. */
function erfcNonNegative(x: number): number {
  return upperIncompleteGamma(0.5, x * x);
}

/** P(Z ≥ z) for a standard normal Z. */
export function normalSf(z: number): number {
  if (z >= 0) return 0.5 * erfcNonNegative(z / Math.SQRT2);
  return 1 - 0.5 * erfcNonNegative(-z / Math.SQRT2);
}

/** P(T ≥ t) for Student's t with df > 0 degrees of freedom (df need not be an integer). */
export function studentTSf(t: number, df: number): number {
  if (t === Infinity) return 0;
  if (t === -Infinity) return 1;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? tail : 1 - tail;
}
