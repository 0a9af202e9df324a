/**
 * The ABIs in `@svc/scheme` are the interface every party codes against; the Solidity must implement each
 * item exactly. Items are compared by a name-free signature (kind, name, parameter types incl. tuple
 * components, `indexed` flags for events, state mutability and output types for functions), so renaming a
 * Solidity parameter is fine but changing a type, an indexed flag or a view/pure marker fails here.
 */
import { describe, expect, it } from "vitest";
import type { Abi, AbiParameter } from "viem";
import { feeSplitterAbi, fixtureProofVerifierAbi, permitBurnerAbi, zerc20HubAbi, zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import { loadArtifacts, type DeployableContractName } from "../compile/loadArtifacts.js";

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

const cases: readonly [DeployableContractName, Abi][] = [
  ["FixtureZErc20", zerc20TokenAbi],
  ["Verifier", zerc20VerifierAbi],
  ["Hub", zerc20HubAbi],
  ["FixtureProofVerifier", fixtureProofVerifierAbi],
  ["PermitBurner", permitBurnerAbi],
  ["FeeSplitter", feeSplitterAbi],
];

describe.each(cases)("%s implements its ABI in @svc/scheme", (contractName, expectedAbi) => {
  const compiled = new Set(artifacts[contractName].abi.map(signatureOf));
  const expected = expectedAbi.map(signatureOf);

  it.each(expected)("%s", (signature) => {
    expect(compiled).toContain(signature);
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
