// Fixed into the binary by build.ts (the `define` of buildDefines, src/core/build-facts.ts); unset in a run from source.
declare const SVC_BUILD_COMMIT: string;
declare const SVC_BUILD_DATE: string;

/** `svc 0.1.0 (commit 1a2b3c4d5e6f, built 2026-11-29)`: what `svc --version` prints. */
export function versionLine(version: string): string {
  // typeof: a name no build defined is no error
  if (typeof SVC_BUILD_COMMIT === 'undefined' || typeof SVC_BUILD_DATE === 'undefined') return `svc ${version} (unbuilt: run from source)`;
  return `svc ${version} (commit ${SVC_BUILD_COMMIT}, built ${SVC_BUILD_DATE})`;
}
