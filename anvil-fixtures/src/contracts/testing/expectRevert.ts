/**
 * Asserts that a contract interaction reverts with a given custom error and returns its decoded arguments.
 * The error is read from viem's decoded revert when the call's ABI knows it, and otherwise decoded against
 * every compiled contract's errors (OpenZeppelin errors, constructor reverts), so the assertion is always on
 * the error's name, never on message text.
 */
import { expect } from "vitest";
import { BaseError, ContractFunctionRevertedError, decodeErrorResult, isHex, type Abi, type Hex } from "viem";
import { loadArtifacts } from "../../compile/loadArtifacts.js";

/** The decoded custom error of a revert. */
export type DecodedRevert = { errorName: string; args: readonly unknown[] };

/** Awaits `action`, fails the test if it does not revert with `errorName`, and returns the decoded error. */
export async function expectRevert(action: Promise<unknown>, errorName: string): Promise<DecodedRevert> {
  let caught: unknown;
  try {
    await action;
  } catch (error) {
    caught = error;
  }
  if (caught === undefined) expect.fail(`expected a revert with ${errorName}, but the call succeeded`);
  const decoded = await decodeRevert(caught);
  expect(decoded?.errorName, `revert of ${String(caught)}`).toBe(errorName);
  return decoded ?? { errorName: "", args: [] };
}

async function decodeRevert(error: unknown): Promise<DecodedRevert | undefined> {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((inner) => inner instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError && reverted.data !== undefined) {
    return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
  }
  const raw = reverted instanceof ContractFunctionRevertedError ? reverted.raw : findRevertData(error);
  if (raw === undefined) return undefined;
  const decoded = decodeErrorResult({ abi: await allErrorsAbi(), data: raw });
  return { errorName: decoded.errorName, args: decoded.args ?? [] };
}

/** Revert data of a failed deployment sits on the RPC error as a hex `data` field. */
function findRevertData(error: BaseError): Hex | undefined {
  const withData = error.walk((inner) => {
    if (typeof inner !== "object" || inner === null || !("data" in inner)) return false;
    return isHex(inner.data) && inner.data.length >= 10;
  });
  if (withData === null || typeof withData !== "object" || !("data" in withData) || !isHex(withData.data)) {
    return undefined;
  }
  return withData.data;
}

type AbiErrorItem = Extract<Abi[number], { type: "error" }>;

let errorsAbi: Promise<Abi> | undefined;

function allErrorsAbi(): Promise<Abi> {
  errorsAbi ??= loadArtifacts().then((artifacts) => {
    const bySignature = new Map<string, AbiErrorItem>();
    for (const artifact of Object.values(artifacts)) {
      for (const item of artifact.abi) {
        if (item.type === "error") bySignature.set(`${item.name}(${item.inputs.map((input) => input.type).join(",")})`, item);
      }
    }
    return [...bySignature.values()];
  });
  return errorsAbi;
}
