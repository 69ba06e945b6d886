import type { LicenseAssessment } from './types.ts';

/** How far a license lets the benchmark use a paper: in words, the colour only repeats it. */
function licenseVerdict(a: LicenseAssessment): { kind: 'usable' | 'limited' | 'unknown'; text: string } {
  if (a.usable) return { kind: 'usable', text: 'usable' };
  if (a.permissive || a.redistributable) return { kind: 'limited', text: a.non_commercial ? 'non-commercial' : 'limited' };
  return { kind: 'unknown', text: a.license === 'unknown' || a.license === '' ? 'review needed' : 'not permissive' };
}

/** The paper's license and what it allows; the assessment's note is its title. */
export function LicenseBadge({ assessment }: { assessment: LicenseAssessment }) {
  const verdict = licenseVerdict(assessment);
  return (
    <span className={`bench-license bench-license-${verdict.kind}`} title={assessment.note}>
      {assessment.license || 'unknown'} · {verdict.text}
    </span>
  );
}
