/**
 * The ABIs in `@svc/scheme` are the published interfaces every party codes against; each fixture contract must
 * implement its version's items exactly, plus its fixture administration (`fixtureAdminAbis.ts`,
 * `deciderVerifierAbis.ts`), and must not carry the other version's items. Items are compared by a name-free
 * signature (kind, name, parameter types incl. tuple components, `indexed` flags for events, state mutability
 * and output types for functions), so renaming a Solidity parameter is fine but changing a type, an indexed
 * flag or a view/pure marker fails here. Those ABIs are ours too, so the compiled contracts are also held to the
 * selectors and topics the protocol publishes (`zerc20-real.md` §3, §4, §6, written out below): in the ABI solc
 * emitted and, for functions and events, in the bytecode (the dispatcher's 4 bytes, the emitted topic).
 */
import { describe, expect, it } from "vitest";
import { type Abi, type AbiFunction, type AbiParameter, toEventSelector, toFunctionSelector } from "viem";
import {
  feeSplitterAbi,
  groth16VerifierAbi,
  permitBurnerAbi,
  zerc20TokenAbi,
  zerc20TokenAbiV1,
  zerc20VerifierAbi,
  zerc20VerifierAbiV1,
  zerc20VerifierAbiV2,
} from "@svc/scheme";
import { loadArtifacts, type DeployableContractName } from "../compile/loadArtifacts.js";
import { fixtureProofSignerAbi, rootDeciderVerifierAbi, withdrawDeciderVerifierAbi } from "./deciderVerifierAbis.js";
import { fixtureHubAbi, fixtureTokenAdminAbi, fixtureVerifierAdminAbi, fixtureVerifierV2AdminAbi } from "./fixtureAdminAbis.js";

const artifacts = await loadArtifacts();

function parameterType(parameter: AbiParameter & { indexed?: boolean }): string {
  const base =
    parameter.type.startsWith("tuple") && "components" in parameter
      ? `(${parameter.components.map(parameterType).join(",")})${parameter.type.slice("tuple".length)}`
      : parameter.type;
  return parameter.indexed === true ? `${base} indexed` : base;
}

function signatureOf(item: Abi[number]): string {
  switch (item.type) {
    case "function":
      return `function ${item.name}(${item.inputs.map(parameterType).join(",")}) ${item.stateMutability} returns (${item.outputs.map(parameterType).join(",")})`;
    case "event":
      return `event ${item.name}(${item.inputs.map(parameterType).join(",")})`;
    case "error":
      return `error ${item.name}(${item.inputs.map(parameterType).join(",")})`;
    default:
      return item.type;
  }
}

const compiledSignatures = (contractName: DeployableContractName): Set<string> => new Set(artifacts[contractName].abi.map(signatureOf));

const cases: readonly [DeployableContractName, string, Abi][] = [
  ["FixtureZErc20V1", "zerc20TokenAbiV1", zerc20TokenAbiV1],
  ["FixtureZErc20V1", "fixtureTokenAdminAbi", fixtureTokenAdminAbi],
  ["FixtureZErc20V2", "zerc20TokenAbi", zerc20TokenAbi],
  ["FixtureZErc20V2", "fixtureTokenAdminAbi", fixtureTokenAdminAbi],
  ["FixtureVerifierV1", "zerc20VerifierAbiV1", zerc20VerifierAbiV1],
  ["FixtureVerifierV1", "fixtureVerifierAdminAbi", fixtureVerifierAdminAbi],
  ["FixtureVerifierV2", "zerc20VerifierAbiV2", zerc20VerifierAbiV2],
  ["FixtureVerifierV2", "fixtureVerifierAdminAbi", fixtureVerifierAdminAbi],
  ["FixtureVerifierV2", "fixtureVerifierV2AdminAbi", fixtureVerifierV2AdminAbi],
  ["FixtureGroth16Verifier", "groth16VerifierAbi", groth16VerifierAbi],
  ["FixtureGroth16Verifier", "fixtureProofSignerAbi", fixtureProofSignerAbi],
  ["FixtureWithdrawDeciderVerifier", "withdrawDeciderVerifierAbi", withdrawDeciderVerifierAbi],
  ["FixtureWithdrawDeciderVerifier", "fixtureProofSignerAbi", fixtureProofSignerAbi],
  ["FixtureRootDeciderVerifier", "rootDeciderVerifierAbi", rootDeciderVerifierAbi],
  ["FixtureRootDeciderVerifier", "fixtureProofSignerAbi", fixtureProofSignerAbi],
  ["FixtureHub", "fixtureHubAbi", fixtureHubAbi],
  ["PermitBurner", "permitBurnerAbi", permitBurnerAbi],
  ["FeeSplitter", "feeSplitterAbi", feeSplitterAbi],
];

describe.each(cases)("%s implements %s", (contractName, _abiName, expectedAbi) => {
  const compiled = compiledSignatures(contractName);
  it.each(expectedAbi.map(signatureOf))("%s", (signature) => {
    expect(compiled).toContain(signature);
  });
});

/** Items one version publishes and the other does not: each version's contract must lack the other's. */
const versionOnly = (own: Abi, other: Abi): string[] => {
  const ownSignatures = new Set(own.map(signatureOf));
  return other.map(signatureOf).filter((signature) => !ownSignatures.has(signature));
};

describe.each<[DeployableContractName, Abi, Abi]>([
  ["FixtureZErc20V1", zerc20TokenAbiV1, zerc20TokenAbi],
  ["FixtureZErc20V2", zerc20TokenAbi, zerc20TokenAbiV1],
  ["FixtureVerifierV1", zerc20VerifierAbiV1, zerc20VerifierAbiV2],
  ["FixtureVerifierV2", zerc20VerifierAbiV2, zerc20VerifierAbiV1],
])("%s lacks the other version's items", (contractName, own, other) => {
  const compiled = compiledSignatures(contractName);
  it.each(versionOnly(own, other))("%s", (signature) => {
    expect(compiled).not.toContain(signature);
  });
});

describe("version differences", () => {
  it("v1 has no permit and no token-wide teleported sum, v2 no token Teleport event", () => {
    const v1Only = versionOnly(zerc20TokenAbi, zerc20TokenAbiV1);
    const v2Only = versionOnly(zerc20TokenAbiV1, zerc20TokenAbi);
    expect(v1Only).toEqual(["event Teleport(address indexed,uint256)"]);
    expect(v2Only).toEqual(
      expect.arrayContaining([
        "function permit(address,address,uint256,uint256,uint8,bytes32,bytes32) nonpayable returns ()",
        "function totalTeleported() view returns (uint256)",
      ]),
    );
  });

  it("the verifiers share the common interface and differ in mint events, overloads, allow-list and pause error", () => {
    for (const contractName of ["FixtureVerifierV1", "FixtureVerifierV2"] as const) {
      const compiled = compiledSignatures(contractName);
      for (const signature of zerc20VerifierAbi.map(signatureOf)) expect(compiled, contractName).toContain(signature);
    }
    expect(versionOnly(zerc20VerifierAbiV2, zerc20VerifierAbiV1)).toEqual(["event Teleport(address indexed,uint256)"]);
  });
});

type SelectorKind = "function" | "event" | "error";

/** The selectors (functions, errors) or topics (events) of what solc emitted for `contractName`. */
function compiledSelectors(contractName: DeployableContractName, kind: SelectorKind): Set<string> {
  const items = artifacts[contractName].abi.filter((item) => item.type === kind);
  // An error's selector is formed like a function's: the first four bytes of its signature's hash.
  return new Set(items.map((item) => (item.type === "event" ? toEventSelector(item) : toFunctionSelector(item as AbiFunction))));
}

// zerc20-real.md §3: the verifier's functions and errors in both versions, v2's additions, the mint events.
const VERIFIER_FUNCTIONS: [string, string][] = [
  ["latestProvedIndex()", "0x9f487dbd"],
  ["provedTransferRoots(uint64)", "0x1bb29877"],
  ["totalTeleported(uint256)", "0x69cc1d27"],
  ["singleTeleport(bool,uint64,(uint64,bytes32,bytes32),bytes)", "0xd4d12244"],
  ["teleport(bool,uint64,(uint64,bytes32,bytes32),bytes)", "0x9854265f"],
  ["hubEid()", "0x4600f17c"],
  ["reserveHashChain()", "0x63373bdc"],
  ["latestReservedIndex()", "0xe9debe05"],
  ["reservedHashChains(uint64)", "0xe2910dd3"],
  ["proveTransferRoot(bytes)", "0x11d29723"],
  ["globalTransferRoots(uint64)", "0xc172e9e3"],
  ["paused()", "0x5c975abb"],
  ["activateEmergency()", "0x457e8b97"],
  ["deactivateEmergency()", "0xfa686948"],
];
const VERIFIER_V2_FUNCTIONS: [string, string][] = [
  ["singleTeleport(…, relayer fee tuple)", "0x9d8d631e"],
  ["teleport(…, relayer fee tuple)", "0x77ec8503"],
  ["isAllowedProver(address)", "0x89e8dd9f"],
];
const VERIFIER_ERRORS: [string, string][] = [
  ["NothingToWithdraw(uint256,uint256)", "0x174ca8da"],
  ["ExpectedRootZero(uint64)", "0x098bd705"],
  ["TransferRootMismatch(uint256,uint256)", "0x3af6a3ee"],
  ["RecipientMismatch(uint256,uint256)", "0x971ca9a9"],
  ["InvalidRecipientChainId(uint64,uint64)", "0x22ff97ba"],
  ["InvalidProof()", "0x09bde339"],
];
const V1_TELEPORT = ["Teleport(address indexed,uint256)", "0xb7d7623245cb52e55db0c4265c68f0507e52aadd4f195cfdafaf1ea5d107e72d"] as const;
// zerc20-real.md §4: the token's functions, errors and transfer event in both versions.
const TOKEN_FUNCTIONS: [string, string][] = [
  ["index()", "0x2986c0e5"],
  ["hashChain()", "0xc841eccb"],
  ["verifier()", "0x2b7ac3f3"],
  ["minter()", "0x07546172"],
  ["teleport(address,uint256)", "0x04ddf0a5"],
];
const TOKEN_ERRORS: [string, string][] = [
  ["ValueTooLarge()", "0x2ad907fb"],
  ["OnlyVerifier()", "0x7a241b02"],
  ["OnlyMinter()", "0x9cdc2ed5"],
];
const INDEXED_TRANSFER = [
  "IndexedTransfer(uint256 indexed,address,address,uint256)",
  "0xb9285eeffc25fae3689fd1d4d3245dbc73f87f3bc8cb50c1de55574221805d0d",
] as const;
const TOKEN_TOTAL_TELEPORTED = ["totalTeleported()", "0x3fadb8ff"] as const;

/** One published item a compiled contract must (or must not) carry: contract, kind, readable name, selector or topic. */
type PublishedItem = readonly [DeployableContractName, SelectorKind, string, string];

const items = (contractName: DeployableContractName, kind: SelectorKind, list: readonly (readonly [string, string])[]): PublishedItem[] =>
  list.map(([name, selector]) => [contractName, kind, name, selector] as const);

const published: readonly PublishedItem[] = [
  ...(["FixtureVerifierV1", "FixtureVerifierV2"] as const).flatMap((contractName) => [
    ...items(contractName, "function", VERIFIER_FUNCTIONS),
    ...items(contractName, "error", VERIFIER_ERRORS),
  ]),
  ...items("FixtureVerifierV1", "event", [V1_TELEPORT]),
  ...items("FixtureVerifierV2", "function", VERIFIER_V2_FUNCTIONS),
  ...items("FixtureVerifierV2", "error", [
    ["UnauthorizedProver(address)", "0xf1ea59d6"],
    ["EnforcedPause()", "0xd93c0665"],
  ]),
  ...items("FixtureVerifierV2", "event", [
    ["Teleport(address indexed,uint256,bool,uint64,uint256,(uint64,bytes32,bytes32))", "0x30ce5e5a039f8d58997d73d7977f2b4bee9bd3917a6232f95277cc1b5fc62621"],
    [
      "TeleportWithRelayerFee(address indexed,address indexed,uint256,uint256,bool,uint64,uint256,(uint64,bytes32,bytes32))",
      "0x8346829da0d31361eaed25a60c76f61f65c5eb296f39bc1fc4cccb35b0399822",
    ],
  ]),
  ...(["FixtureZErc20V1", "FixtureZErc20V2"] as const).flatMap((contractName) => [
    ...items(contractName, "function", TOKEN_FUNCTIONS),
    ...items(contractName, "error", TOKEN_ERRORS),
    ...items(contractName, "event", [INDEXED_TRANSFER]),
  ]),
  // §3: "token emits it too" (v1's Teleport); §4: v2's token-wide sum.
  ...items("FixtureZErc20V1", "event", [V1_TELEPORT]),
  ...items("FixtureZErc20V2", "function", [TOKEN_TOTAL_TELEPORTED]),
  // §6: the proof verifiers the verifier calls.
  ...items("FixtureGroth16Verifier", "function", [["verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[3])", "0x11479fea"]]),
  ...items("FixtureWithdrawDeciderVerifier", "function", [["decider of a batch withdrawal", "0x76fe87c2"]]),
  ...items("FixtureRootDeciderVerifier", "function", [["decider of a transfer root", "0xbd70b10d"]]),
];

/** What one version publishes and the other's contract must not carry (zerc20-real.md §3, §4). */
const unpublished: readonly PublishedItem[] = [
  ...items("FixtureVerifierV1", "function", VERIFIER_V2_FUNCTIONS),
  ...items("FixtureVerifierV1", "error", [["UnauthorizedProver(address)", "0xf1ea59d6"]]),
  ...items("FixtureVerifierV2", "event", [V1_TELEPORT]),
  ...items("FixtureZErc20V1", "function", [TOKEN_TOTAL_TELEPORTED]),
  ...items("FixtureZErc20V2", "event", [V1_TELEPORT]),
];

describe("the compiled contracts carry the published selectors and topics (zerc20-real.md)", () => {
  it.each(published)("%s: %s %s is %s", (contractName, kind, _name, selector) => {
    expect(compiledSelectors(contractName, kind)).toContain(selector);
    // The dispatcher compares the call's first 4 bytes with the selector; an event's topic is a constant in the code.
    if (kind !== "error") expect(artifacts[contractName].bytecode.toLowerCase()).toContain(selector.slice(2));
  });

  it.each(unpublished)("%s: no %s %s (%s)", (contractName, kind, _name, selector) => {
    expect(compiledSelectors(contractName, kind)).not.toContain(selector);
  });
});

describe("signature normaliser", () => {
  it("expands tuples and keeps indexed flags and mutability", () => {
    const verifierTeleport = zerc20VerifierAbi.find((item) => item.type === "function" && item.name === "singleTeleport");
    const burnEvent = permitBurnerAbi.find((item) => item.type === "event" && item.name === "BurnExecuted");
    expect(verifierTeleport && signatureOf(verifierTeleport)).toBe("function singleTeleport(bool,uint64,(uint64,bytes32,bytes32),bytes) nonpayable returns ()");
    expect(burnEvent && signatureOf(burnEvent)).toBe("event BurnExecuted(bytes32 indexed,bytes32 indexed,address indexed,address,address,uint256)");
  });
});
