/**
 * The `protocol` probe: the deployment answers as the version `network.protocol` names, its verifier emits
 * that version's `Teleport` event (the mint finalize waits for), and what the token offers (decimals,
 * EIP-2612 permit). `start` refuses the same mismatch (ProtocolVersionMismatchError): a burn
 * address of the wrong version can never be withdrawn, so the payer's money would be lost.
 */
import { detectProtocolVersion, detectTeleportEvent, zerc20VerifierAbi } from "@svc/scheme";
import { getAddress } from "viem";
import { readTokenFacts } from "../../chain/readTokenFacts.js";
import type { FacilitatorConfig } from "../../config/index.js";
import { ProtocolVersionMismatchError } from "../../config/errors.js";
import { NETWORK_PRESETS } from "../../config/networkPresets.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";
import type { CheckChain } from "./probeRpc.js";

/** Detects the deployment's version and the token's decimals and permit. */
export async function probeProtocol(config: FacilitatorConfig, chain: CheckChain, timeoutMs: number): Promise<CheckFinding[]> {
  const list = new FindingList("protocol");
  const token = getAddress(config.network.token);
  try {
    const deployed = await detectProtocolVersion(chain.client, { token, verifier: getAddress(config.network.verifier) });
    if (deployed.version === config.network.protocol) {
      list.ok(`network.protocol ${config.network.protocol}: the deployment answers as ${deployed.version}`);
    } else {
      list.fail(new ProtocolVersionMismatchError({ configured: config.network.protocol, deployed: deployed.version }).shortMessage);
    }
    const emitted = await detectTeleportEvent(chain.client, getAddress(config.network.verifier));
    const where = emitted.throughProxy ? "through its EIP-1967 implementation" : "in its code";
    if (emitted.versions.length === 0) {
      list.warn(
        "network.verifier: no Teleport event of either version found in its code (nor behind an EIP-1967 proxy); the mint event finalize waits for is unchecked",
      );
    } else if (emitted.versions.length === 1 && emitted.versions[0] === config.network.protocol) {
      list.ok(`network.verifier emits the ${config.network.protocol} Teleport event (found ${where})`);
    } else {
      list.fail(
        `network.verifier emits the ${emitted.versions.join(" and ")} Teleport event (found ${where}); network.protocol ${config.network.protocol} waits for its own, so no mint would be recognised`,
      );
    }
    const preset = config.network.preset === undefined ? undefined : NETWORK_PRESETS[config.network.preset];
    if (preset !== undefined) {
      const hubEid = await chain.client.readContract({ address: getAddress(config.network.verifier), abi: zerc20VerifierAbi, functionName: "hubEid" });
      if (hubEid === preset.hubEid) list.ok(`network.preset ${config.network.preset}: the verifier's hub is endpoint ${hubEid}, as published`);
      else list.fail(`network.preset ${config.network.preset}: the verifier's hub is endpoint ${hubEid}, the published deployment's is ${preset.hubEid}`);
    }
    const facts = await readTokenFacts(chain.client, token);
    const permit = facts.permit ? "EIP-2612 permit" : "no EIP-2612 permit";
    list.ok(`network.token: ${facts.decimals} decimals, ${permit}`);
    if (!facts.permit && config.settlement.permit_burner !== undefined) {
      list.warn("settlement.permit_burner is set but the token has no permit: offers carry no helper, only the self-transfer path is offered");
    }
  } catch (error) {
    list.fail(`cannot read the deployment's version: ${describeFailure(error, timeoutMs)}`);
  }
  return list.findings;
}
