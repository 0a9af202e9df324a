/**
 * What `check` reports: one finding per line, each tagged with the probe that produced it so tests and
 * scripts can pick out one probe's verdict without parsing the wording.
 */

/** The probes of `check`, in the order they run. */
export type CheckProbe =
  | "config"
  | "keys"
  | "rpc"
  | "relayer"
  | "contracts"
  | "protocol"
  | "splitter"
  | "journal"
  | "storage"
  | "indexer"
  | "decider"
  | "poseidon"
  | "prover"
  | "providers"
  | "finalize"
  | "witnesses"
  | "history"
  | "proofs";

/** A finding's verdict: `fail` is a problem (exit 1), `warn` lets the daemon start, `skip` was not probed. */
export type CheckStatus = "ok" | "warn" | "fail" | "skip";

/** One line of `check` output. */
export type CheckFinding = {
  probe: CheckProbe;
  status: CheckStatus;
  /** One line for the operator; never a secret's value, URLs credential-redacted. */
  message: string;
};

/** The marker printed in front of each status; a cross marks exactly the problems and nothing else. */
export const STATUS_MARKERS: Readonly<Record<CheckStatus, string>> = {
  ok: "✓",
  warn: "⚠",
  fail: "✗",
  skip: "-",
};

/** Renders a finding as the line `check` prints (without the newline). */
export function formatFinding(finding: CheckFinding): string {
  return `${STATUS_MARKERS[finding.status]} ${finding.probe}: ${finding.message}`;
}

/** Collects findings for one probe; a small helper so probe code reads as a list of verdicts. */
export class FindingList {
  /** The findings recorded so far, in order. */
  readonly findings: CheckFinding[] = [];

  constructor(private readonly probe: CheckProbe) {}

  /** Records a passed check. */
  ok(message: string): void {
    this.findings.push({ probe: this.probe, status: "ok", message });
  }

  /** Records a condition the daemon tolerates but the operator should see. */
  warn(message: string): void {
    this.findings.push({ probe: this.probe, status: "warn", message });
  }

  /** Records a problem. */
  fail(message: string): void {
    this.findings.push({ probe: this.probe, status: "fail", message });
  }

  /** Records that a check did not run, and why. */
  skip(message: string): void {
    this.findings.push({ probe: this.probe, status: "skip", message });
  }
}
