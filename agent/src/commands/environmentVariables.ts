/**
 * Every `SVC_*` variable the agent reads, with what it means, for `svc-agent --help`. Plain strings only:
 * help loads nothing heavier (`helpLoadsNoHeavyModules.test.ts`). `environmentVariables.test.ts` fails when
 * the code reads a variable this list does not name. Every limit takes token units (`0.002`) or base units with
 * the `base` suffix (`2000base`). Defaults and formats: agent/README.md, "Environment variables".
 */
export const ENVIRONMENT_VARIABLES: readonly (readonly [name: string, meaning: string])[] = [
  ["SVC_PAYER_PK", "the paying account's private key (0x and 64 hex digits); quote, ledger and approvals work without it"],
  ["SVC_RPC_URL", "EVM RPC for token reads and, in self-transfer mode, the burn (default http://127.0.0.1:8545)"],
  ["SVC_MODE", "permit (sign only, the facilitator pays gas; default) or self-transfer (the agent burns)"],
  ["SVC_TIMEOUT_MS", "timeout of each HTTP exchange and RPC call, milliseconds"],
  ["SVC_ALLOWED_HOSTS", "comma-separated hosts a request may go to, or * (default localhost,127.0.0.1)"],
  ["SVC_ALLOWED_NETWORK", "the only CAIP-2 network an offer may be on (default eip155:31337)"],
  ["SVC_ALLOWED_TOKEN", "the only token address an offer may be in (default any)"],
  ["SVC_MAX_PER_PAYMENT", "largest single payment, in token units like 0.002 (2000base: base units; default no cap)"],
  ["SVC_MAX_TOTAL", "largest total spend per network and token, in token units (default no cap)"],
  ["SVC_MAX_PER_HOUR", "largest spend per network and token within a rolling hour (default no cap)"],
  ["SVC_MAX_PER_DAY", "largest spend per network and token within a rolling 24 hours (default no cap)"],
  ["SVC_MAX_PER_WEEK", "largest spend per network and token within a rolling 7 days (default no cap)"],
  ["SVC_MAX_PER_MONTH", "largest spend per network and token within a rolling 30 days (default no cap)"],
  ["SVC_MAX_PER_HOST", "largest total spend per network and token on one host name (default no cap)"],
  ["SVC_MAX_PER_MCP_SESSION", "largest spend per network and token within one run of svc-agent mcp (default no cap)"],
  ["SVC_APPROVE_ABOVE", "payments above this amount, in token units, wait for a human (default approval off)"],
  ["SVC_APPROVAL_TIMEOUT_MS", "how long a payment waits for a human before it is declined, milliseconds"],
  ["SVC_STATE_DIR", "folder of the spend ledger, approvals and stored payments (default ~/.svc-agent)"],
  ["SVC_FACILITATOR_URL", "the facilitator's URL, for history, proof and the TUI's history view"],
  ["SVC_HISTORY_DOMAIN", "when set, history logins are signed only for this domain"],
];

/** The "Environment variables" section `svc-agent --help` ends with. */
export function environmentHelp(): string {
  const width = Math.max(...ENVIRONMENT_VARIABLES.map(([name]) => name.length));
  const lines = ENVIRONMENT_VARIABLES.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`);
  return ["Environment variables (an empty value counts as unset)", "", ...lines, ""].join("\n");
}
