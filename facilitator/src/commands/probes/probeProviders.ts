/**
 * The `providers` probe: the authenticated callers of the money endpoints, with the limits each gets, or why
 * none are needed. Outside profile `local` a provider table is required (`start` refuses without one). Only
 * a short prefix of each key's SHA-256 is shown: enough to tell keys apart, nothing to call with.
 */
import type { FacilitatorConfig } from "../../config/index.js";
import { ProviderCredentialsRequiredError } from "../../config/errors.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** Lists `[providers.*]` with their effective limits. */
export function probeProviders(config: FacilitatorConfig): CheckFinding[] {
  const list = new FindingList("providers");
  const providers = Object.entries(config.providers ?? {});
  if (providers.length === 0) {
    if (config.profile === "local") {
      list.ok("none configured: /challenge, /verify and /settle are limited per client IP");
    } else {
      list.fail(new ProviderCredentialsRequiredError({ profile: config.profile }).shortMessage);
    }
    return list.findings;
  }
  for (const [name, provider] of providers) {
    const money = provider.rate_limit_per_min ?? config.daemon.rate_limit_per_min;
    const offers = provider.challenge_per_payer_per_min ?? config.daemon.challenge_per_key_per_min;
    list.ok(
      `${name} (key sha256 ${provider.key_sha256.slice(0, 12)}…): ${describeLimit(money, "money calls")}, ` + `${describeLimit(offers, "offers per payer")}`,
    );
  }
  return list.findings;
}

function describeLimit(perMinute: number, what: string): string {
  return perMinute <= 0 ? `${what} unlimited` : `${perMinute} ${what}/min`;
}
