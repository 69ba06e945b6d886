/**
 * Upper bounds of the multi-agent idea engine's settings (SVC_IDEA_MA_*, and a launch request's
 * vir_sci_* fields) that keep one call within reason: k · team_size · max_teams model calls.
 */
export const MA_LIMITS = { k: 20, teamSize: 8, nAuthors: 64, nPapers: 5000, maxTeams: 16 } as const;

/** A launch request's (and launch_config.json's) names of the engine's settings, as the reference's dashboard sends them, and the variables that carry them. */
export const VIR_SCI_FIELDS = [
  ['vir_sci_real', 'SVC_IDEA_MA_REAL'],
  ['vir_sci_k', 'SVC_IDEA_MA_K'],
  ['vir_sci_team_size', 'SVC_IDEA_MA_TEAM_SIZE'],
  ['vir_sci_n_authors', 'SVC_IDEA_MA_N_AUTHORS'],
  ['vir_sci_n_papers', 'SVC_IDEA_MA_N_PAPERS'],
] as const;
