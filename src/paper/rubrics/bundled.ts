// The bundled reviewer rubrics, embedded as text so the binary needs nothing on disk.
import neurips from './neurips.yaml' with { type: 'text' };
import iclr from './iclr.yaml' with { type: 'text' };
import icml from './icml.yaml' with { type: 'text' };
import cvpr from './cvpr.yaml' with { type: 'text' };
import acl from './acl.yaml' with { type: 'text' };
import sc from './sc.yaml' with { type: 'text' };
import osdi from './osdi.yaml' with { type: 'text' };
import usenixSecurity from './usenix_security.yaml' with { type: 'text' };
import stoc from './stoc.yaml' with { type: 'text' };
import siggraph from './siggraph.yaml' with { type: 'text' };
import chi from './chi.yaml' with { type: 'text' };
import icra from './icra.yaml' with { type: 'text' };
import nature from './nature.yaml' with { type: 'text' };
import journalGeneric from './journal_generic.yaml' with { type: 'text' };
import workshop from './workshop.yaml' with { type: 'text' };
import genericConference from './generic_conference.yaml' with { type: 'text' };

/** The sixteen bundled rubrics (the spec's order), id to YAML text. */
export const BUNDLED_RUBRIC_TEXTS: ReadonlyMap<string, string> = new Map(
  Object.entries({ neurips, iclr, icml, cvpr, acl, sc, osdi, usenix_security: usenixSecurity, stoc, siggraph, chi, icra, nature, journal_generic: journalGeneric, workshop, generic_conference: genericConference }) as [string, string][],
);
