/** One thing the claim gate found: a claim without evidence, a number that disagrees, an environment that differs. */
export type Finding = { type: string; message: string; key?: string; claimed?: number; evidence?: number[]; where?: string };
