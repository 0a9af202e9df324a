/**
 * `detectTeleportEvent` against deployed code, both versions: the verifier's code holds exactly its version's
 * `Teleport` topic (written out here from `zerc20-real.md`, not computed by the code under test); a contract
 * without it reads as none; an EIP-1967 proxy is read through its implementation slot.
 */
import { describe, expect, it } from "vitest";
import { pad } from "viem";
import { detectTeleportEvent, EIP1967_IMPLEMENTATION_SLOT, type ProtocolVersion } from "@svc/scheme";
import { useLocalChain } from "./testing/useLocalChain.js";

const PUBLISHED_TOPICS: Record<ProtocolVersion, string> = {
  "zerc20-v1": "b7d7623245cb52e55db0c4265c68f0507e52aadd4f195cfdafaf1ea5d107e72d",
  "zerc20-v2": "30ce5e5a039f8d58997d73d7977f2b4bee9bd3917a6232f95277cc1b5fc62621",
};

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("detectTeleportEvent on a %s deployment", (version) => {
  const chain = useLocalChain({ protocol: version });

  it("finds exactly the version's published Teleport topic in the verifier's code", async () => {
    const { publicClient, deployment } = chain();
    const code = (await publicClient.getCode({ address: deployment.verifier })) ?? "0x";
    expect(code.toLowerCase()).toContain(PUBLISHED_TOPICS[version]);
    expect(await detectTeleportEvent(publicClient, deployment.verifier)).toEqual({ versions: [version], throughProxy: false });
  });

  it("finds none in a contract that emits no Teleport, and reads a proxy through its implementation slot", async () => {
    const { publicClient, testClient, deployment } = chain();
    expect(await detectTeleportEvent(publicClient, deployment.permitBurner)).toEqual({ versions: [], throughProxy: false });
    // The PermitBurner's storage now names the verifier as its EIP-1967 implementation.
    await testClient.setStorageAt({ address: deployment.permitBurner, index: EIP1967_IMPLEMENTATION_SLOT, value: pad(deployment.verifier) });
    expect(await detectTeleportEvent(publicClient, deployment.permitBurner)).toEqual({ versions: [version], throughProxy: true });
  });
});
