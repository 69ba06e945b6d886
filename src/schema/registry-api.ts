import { Type as T } from '@sinclair/typebox';

/** POST /artifact/<id>/promote: the target may also come as `?target=` (as the ARI clients send it). */
export const PromoteBody = T.Object(
  { target: T.Optional(T.String({ description: 'unlisted, public, private-token or embargoed-until:YYYY-MM-DD' })) },
  // the ARI clients' body may carry more; only the target is read
  { additionalProperties: true },
);

/** ?target= of POST /artifact/<id>/promote; other parameters pass. */
export const PromoteQuery = T.Object({ target: T.Optional(T.String()) }, { additionalProperties: true });
