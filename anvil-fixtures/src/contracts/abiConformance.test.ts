/**
 * The ABIs in `@svc/scheme` are the published interfaces every party codes against; each fixture contract must
 * implement its version's items exactly, plus its fixture administration (`fixtureAdminAbis.ts`,
 * `deciderVerifierAbis.ts`), and must not carry the other version's items. Items are compared by a name-free
 * signature (kind, name, parameter types incl. tuple components, `indexed` flags for events, state mutability
 * and output types for functions), so renaming a Solidity parameter is fine but changing a type, an indexed
 * flag or a view/pure marker fails here.
 */
import { describe, expect, it } from "vitest";
import type { Abi, AbiParameter } from "viem";
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

describe("signature normaliser", () => {
  it("expands tuples and keeps indexed flags and mutability", () => {
    const verifierTeleport = zerc20VerifierAbi.find((item) => item.type === "function" && item.name === "singleTeleport");
    const burnEvent = permitBurnerAbi.find((item) => item.type === "event" && item.name === "BurnExecuted");
    expect(verifierTeleport && signatureOf(verifierTeleport)).toBe("function singleTeleport(bool,uint64,(uint64,bytes32,bytes32),bytes) nonpayable returns ()");
    expect(burnEvent && signatureOf(burnEvent)).toBe("event BurnExecuted(bytes32 indexed,bytes32 indexed,address indexed,address,address,uint256)");
  });
});
