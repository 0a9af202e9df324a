import { access, constants } from "node:fs/promises";
import { resolve } from "node:path";

import { TrustAnchorUnreadableError } from "../history/errors.js";
import { fetchPaymentProof } from "../history/fetchPaymentProof.js";
import { Ledger } from "../ledger/ledger.js";
import { getPayment, parsePaymentId } from "../ledger/paymentId.js";
import { loadHistoryConfig } from "../history/loadHistoryConfig.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { proofResultExitCode } from "./proofResultExitCode.js";
import { writeJsonLine, writeLine } from "./writeLine.js";
import type { ProofCommand } from "./proofCommand.js";

/** Runs `ProofCommand` as parsed into `command`; returns the exit code. */
export async function runProof(command: ProofCommand): Promise<number> {
  const { stdout, env } = command.context;
  const policy = loadPolicy(env);
  const config = loadHistoryConfig(env);
  const typed = parsePaymentId(command.paymentId);
  const paymentId =
    typed.kind === "nonce" ? typed.challengeNonce : getPayment(await new Ledger(policy.stateDir).entries(), typed.id).challengeNonce.toLowerCase();
  const trustAnchor = resolve(command.trustAnchor);
  // Checked first: without it the proof cannot be verified, so it is not worth issuing.
  await access(trustAnchor, constants.R_OK).catch((error: unknown) => {
    throw new TrustAnchorUnreadableError({
      path: command.trustAnchor,
      code: error instanceof Error ? String(Reflect.get(error, "code") ?? error.name) : "unreadable",
    });
  });
  const { proofId, files, verification } = await fetchPaymentProof({ policy, config, paymentId, outDir: resolve(command.out), trustAnchor });
  if (command.json) {
    writeJsonLine(stdout, { result: verification.result, reason: verification.reason, proofId, paymentId, files });
  } else {
    writeLine(stdout, `proof ${proofId} saved: ${files.proof}, ${files.manifest}, ${files.statusChain}`);
    writeLine(stdout, `${verification.result}: ${verification.reason}`);
  }
  return proofResultExitCode(verification.result);
}
