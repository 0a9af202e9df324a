import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSingleTeleportCircuit, startStack, type RunningStack } from "@svc/anvil-fixtures";
import { NativePoseidonPathSchema, selectPoseidon } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CHECKS_OUT_LINE, countProblems, runCheck, type CheckFinding } from "./check.js";
import { closedPort, readEnvFile, writeConfigVariant, type TomlOverrides } from "./testing/stackFiles.js";

let dir: string;
let stack: RunningStack;
let env: Record<string, string>;
/** Every line any check printed, for the final no-secrets assertion. */
const printed: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-check-"));
  stack = await startStack({ dir, facilitatorPort: 0 });
  env = await readEnvFile(stack.files.facilitatorEnv);
});

afterAll(async () => {
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

type CheckRun = { findings: CheckFinding[]; lines: string[]; problems: string[] };

async function check(configPath: string, environment: Record<string, string | undefined> = env): Promise<CheckRun> {
  let text = "";
  const findings = await runCheck({ configPath, env: environment, write: (chunk) => (text += chunk), timeoutMs: 3_000 });
  expect(text.endsWith("\n")).toBe(true);
  const lines = text.slice(0, -1).split("\n");
  printed.push(...lines);
  return { findings, lines, problems: lines.filter((line) => line.startsWith("✗")) };
}

async function checkVariant(overrides: TomlOverrides, environment?: Record<string, string | undefined>): Promise<CheckRun> {
  return check(await writeConfigVariant(stack.files.facilitatorToml, overrides), environment);
}

describe("runCheck against the local stack", () => {
  it("passes the generated configuration and ends with the checks-out line", async () => {
    const { findings, lines, problems } = await check(stack.files.facilitatorToml);
    expect(problems).toEqual([]);
    expect(countProblems(findings)).toBe(0);
    expect(lines.at(-1)).toMatch(/^✓ configuration checks out/);
    expect(lines.at(-1)).toBe(`${CHECKS_OUT_LINE} (2 warnings)`);
    const probes = new Set(findings.map((finding) => finding.probe));
    expect([...probes]).toEqual([
      "config",
      "keys",
      "providers",
      "finalize",
      "history",
      "proofs",
      "rpc",
      "relayer",
      "contracts",
      "protocol",
      "witnesses",
      "journal",
      "indexer",
      "decider",
      "prover",
      "poseidon",
    ]);
    expect(lines).toContain("✓ providers: none configured: /challenge, /verify and /settle are limited per client IP");
    expect(lines).toContain("✓ history: off (none of the six history variables is set)");
    expect(lines).toContain("✓ finalize: mints 0-0 s after acceptance (a keyed random delay), in a keyed order");
    expect(lines).toContain("✓ proofs: off (none of the four proof variables is set)");
    // The stack's environment forces no path: the fastest this processor has.
    const path = selectPoseidon("native").implementation.path;
    expect(NativePoseidonPathSchema.options).toContain(path);
    expect(lines).toContain(`✓ poseidon: burn addresses derive with native, path ${path} (SVC_POSEIDON=auto, SVC_POSEIDON_PATH=auto)`);
    expect(lines).toContain(`✓ contracts: network.token ${stack.deployment.token} has deployed code`);
    expect(lines).toContain(`✓ contracts: settlement.permit_burner ${stack.deployment.permitBurner} has deployed code`);
    expect(lines).toContain(`✓ rpc: RPC ${stack.deployment.rpcUrl}/ answers with chain 31337 (= network.chain_id)`);
    expect(lines).toContain(`✓ indexer: ${stack.deployment.indexerUrl}/healthz answers HTTP 200`);
    expect(lines).toContain(`- decider: ${stack.deployment.deciderUrl}/ not probed: it is called only on the batch proving path`);
    expect(lines).toContain("✓ prover: kind fixture (only under profile local on chain 31337)");
    // A fresh stack: no follower has run yet, and the stack's configuration names the token's deployment block.
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^✓ witnesses: finalize\\.witnesses = "self": the token has \\d+ leaves, the verifier proved \\d+; no saved follower, the first pass follows from block ${stack.deployment.deployBlockNumber}$`,
        ),
      ),
    );
    // The stack runs on anvil's public keys: accepted, but never silently.
    expect(lines.filter((line) => line.startsWith("⚠ keys:"))).toEqual([
      "⚠ keys: SVC_TREASURY_PK is a well-known development key (anvil account 1); accepted only because the setup is fully local",
      "⚠ keys: SVC_RELAYER_PK is a well-known development key (anvil account 2); accepted only because the setup is fully local",
    ]);
  });

  it("passes split fee mode when the splitter's bps equals fee.bps", async () => {
    const splitter = stack.deployment.feeSplitter;
    const { lines, problems } = await checkVariant({
      settlement: { treasury: splitter },
      fee: { bps: stack.deployment.feeSplit.bps, min_per_payment: "0", recipient: undefined, splitter },
    });
    expect(problems).toEqual([]);
    expect(lines).toContain(
      `✓ splitter: fee splitter ${splitter}: bps() ${stack.deployment.feeSplit.bps} = fee.bps, ` +
        `payee ${stack.deployment.feeSplit.payee}, fee recipient ${stack.deployment.feeSplit.feeRecipient}`,
    );
    expect(lines.at(-1)).toMatch(/^✓ configuration checks out/);
  });

  it("reports an unreachable RPC and skips the probes that need it", async () => {
    const port = await closedPort();
    const { lines, problems } = await checkVariant({ network: { rpc_url: `http://127.0.0.1:${port}` } });
    expect(problems).toEqual([`✗ rpc: RPC http://127.0.0.1:${port}/ is unreachable: ECONNREFUSED`]);
    expect(lines).toContain("- relayer: skipped: the RPC is unreachable");
    expect(lines).toContain("- contracts: skipped: the RPC is unreachable");
    expect(lines.at(-1)).toBe("check failed: 1 problem");
  });

  it("reports an RPC that serves another chain, and every startup rule that chain id breaks", async () => {
    const { lines, problems } = await checkVariant({ network: { chain_id: 1 } });
    expect(problems).toEqual([
      "✗ keys: SVC_TREASURY_PK is a well-known development key, refused because network.chain_id is not 31337.",
      "✗ keys: SVC_RELAYER_PK is a well-known development key, refused because network.chain_id is not 31337.",
      "✗ keys: Profile `local` has no prover on chain 1: it runs only on the local chain 31337.",
      "✗ rpc: network.chain_id is 1 but the RPC at network.rpc_url reports chain 31337.",
    ]);
    expect(lines).toContain("- contracts: skipped: the RPC serves chain 31337, not network.chain_id");
    expect(lines.at(-1)).toBe("check failed: 4 problems");
  });

  it("reads the deployment's version and the token's decimals and permit, and refuses the other version", async () => {
    const { lines } = await checkVariant({});
    expect(lines).toContain("✓ protocol: network.protocol zerc20-v2: the deployment answers as zerc20-v2");
    expect(lines).toContain("✓ protocol: network.token: 18 decimals, EIP-2612 permit");
    expect(lines).toContain("✓ protocol: network.verifier emits the zerc20-v2 Teleport event (found in its code)");
    const { problems } = await checkVariant({ network: { protocol: "zerc20-v1" } });
    expect(problems).toEqual([
      "✗ protocol: network.protocol is zerc20-v1 but the deployment at network.verifier runs zerc20-v2.",
      "✗ protocol: network.verifier emits the zerc20-v2 Teleport event (found in its code); network.protocol zerc20-v1 waits for its own, so no mint would be recognised",
    ]);
  });

  it("reports a token address without code (an EOA)", async () => {
    const eoa = stack.deployment.accounts.payer.address;
    const { problems } = await checkVariant({ network: { token: eoa } });
    expect(problems).toEqual([`✗ contracts: network.token ${eoa} has no deployed code on chain 31337`]);
  });

  it("reports a permit burner address without code", async () => {
    const nowhere = "0x00000000000000000000000000000000000b0b0b";
    const { problems } = await checkVariant({ settlement: { permit_burner: nowhere } });
    expect(problems).toEqual([`✗ contracts: settlement.permit_burner ${nowhere} has no deployed code on chain 31337`]);
  });

  it("lists every bad config value, not just the first, and skips the probes that need a configuration", async () => {
    const { lines, problems } = await checkVariant({
      network: { chain_id: "thirty-one", rpc_ulr: "http://127.0.0.1:1" },
      listen: { port: 70_000 },
      fee: { charge_to: "nobody" },
    });
    expect(problems).toEqual([
      '✗ config: Unknown configuration key "network.rpc_ulr".',
      '✗ config: Invalid value for "network.chain_id": expected an integer at least 1.',
      '✗ config: Invalid value for "listen.port": must be between 0 and 65535.',
      '✗ config: Invalid value for "fee.charge_to": expected "payer" or "provider".',
    ]);
    expect(lines).toContain("- keys: startup rules not checked: the configuration does not parse");
    for (const probe of ["rpc", "contracts", "journal", "indexer"]) {
      expect(lines).toContain(`- ${probe}: skipped: the configuration does not parse`);
    }
    expect(lines.at(-1)).toBe("check failed: 4 problems");
  });

  it("reports an unreadable configuration file", async () => {
    const missing = join(dir, "missing.toml");
    const { problems, lines } = await check(missing);
    expect(problems).toEqual([`✗ config: Cannot read configuration file ${JSON.stringify(missing)}.`]);
    expect(lines.at(-1)).toBe("check failed: 1 problem");
  });

  it("reports a missing SVC_RELAYER_PK by name", async () => {
    const { SVC_RELAYER_PK: _relayer, ...withoutRelayer } = env;
    const { lines, problems } = await check(stack.files.facilitatorToml, withoutRelayer);
    expect(problems).toEqual(["✗ keys: SVC_RELAYER_PK is not set."]);
    expect(lines).toContain("- keys: startup rules not checked: the secrets above are missing or invalid");
  });

  it("reports every bad secret, each by name", async () => {
    const { problems } = await check(stack.files.facilitatorToml, {
      SVC_TREASURY_PK: "0x1234",
      SVC_ADMIN_TOKEN: "short",
    });
    expect(problems).toEqual([
      "✗ keys: SVC_TREASURY_PK is invalid: expected 0x followed by 64 hex digits (a 32-byte private key).",
      "✗ keys: SVC_RELAYER_PK is not set.",
      "✗ keys: SVC_ADMIN_TOKEN is invalid: must be at least 16 characters long.",
    ]);
  });

  it("refuses development keys under a non-local profile", async () => {
    const { problems } = await checkVariant({ profile: "testnet" });
    expect(problems).toEqual([
      "✗ keys: SVC_TREASURY_PK is a well-known development key, refused because the profile is not `local`.",
      "✗ keys: SVC_RELAYER_PK is a well-known development key, refused because the profile is not `local`.",
      "✗ keys: Profile `testnet` needs a minter key of its own: SVC_MINTER_PK is unset. Set SVC_MINTER_PK to a separate funded key.",
      "✗ providers: profile `testnet` requires at least one [providers.<name>] table with key_sha256: outside profile local only authenticated providers may call /challenge, /verify and /settle",
    ]);
  });

  it("fails under profile testnet when one key would both relay burns and mint, and passes once SVC_MINTER_PK is its own key", async () => {
    const minterLines = (lines: string[]) => lines.filter((line) => /^[✗⚠] keys:/.test(line) && line.includes("SVC_MINTER_PK"));
    const unset = await checkVariant({ profile: "testnet" });
    expect(minterLines(unset.lines)).toEqual([
      "✗ keys: Profile `testnet` needs a minter key of its own: SVC_MINTER_PK is unset. Set SVC_MINTER_PK to a separate funded key.",
    ]);
    const same = await checkVariant({ profile: "testnet" }, { ...env, SVC_MINTER_PK: env.SVC_RELAYER_PK });
    expect(minterLines(same.lines)).toEqual([
      expect.stringContaining("✗ keys: Profile `testnet` needs a minter key of its own: SVC_MINTER_PK equals SVC_RELAYER_PK."),
    ]);
    const separate = await checkVariant({ profile: "testnet" }, { ...env, SVC_MINTER_PK: `0x${"3c".repeat(32)}` });
    expect(minterLines(separate.lines)).toEqual([]);
    expect(separate.lines).toContainEqual(expect.stringMatching(/^✓ keys: SVC_MINTER_PK \(address 0x[0-9a-fA-F]{40}\) submits mints/));
    expect(separate.lines).toContainEqual(
      expect.stringMatching(/^⚠ relayer: 0x[0-9a-fA-F]{40} \(SVC_MINTER_PK\) holds no native balance to pay gas for mints and fee distributions$/),
    );
    expect(minterLines((await check(stack.files.facilitatorToml)).lines)).toEqual([]);
  });

  it("warns under an unset profile when one key both relays burns and mints", async () => {
    const unset = await checkVariant({ profile: undefined });
    expect(unset.lines).toContainEqual(
      "⚠ keys: SVC_MINTER_PK is unset: one account relays payers' burns and submits the mints to the treasury, so a chain observer can link them; set SVC_MINTER_PK to a separate funded key",
    );
  });

  it("warns outside profile local when the finalize schedule is set to the fast one, and not under a delayed one", async () => {
    const finalizeLines = (lines: string[]) => lines.filter((line) => line.startsWith("⚠ finalize:") || line.startsWith("✓ finalize:"));
    const fast = await checkVariant({ profile: "testnet", finalize: { min_delay_seconds: 0, max_delay_seconds: 0, min_anonymity_set: 1 } });
    expect(finalizeLines(fast.lines)).toEqual([expect.stringMatching(/^⚠ finalize: finalize\.max_delay_seconds is 0: each mint follows its burn/)]);
    // Testnet's default is the recommended policy.
    const delayed = await checkVariant({ profile: "testnet" });
    expect(finalizeLines(delayed.lines)).toEqual([
      "✓ finalize: mints 60-1800 s after acceptance (a keyed random delay), in a keyed order, once 3 payments of the same amount wait (itself included) or 1800 s have passed",
    ]);
  });

  it("requires SVC_ADMIN_TOKEN for an unset profile", async () => {
    const { SVC_ADMIN_TOKEN: _token, ...withoutToken } = env;
    const { problems } = await checkVariant({ profile: undefined }, withoutToken);
    expect(problems).toContain("✗ keys: SVC_ADMIN_TOKEN is not set; it is required because the profile is unset (an unset profile is non-local).");
  });

  it("reports a journal folder that cannot be written (a path under a regular file)", async () => {
    const file = join(dir, "not-a-folder");
    await writeFile(file, "a regular file\n");
    const { problems } = await checkVariant({ settlement: { journal: "not-a-folder/journal.jsonl" } });
    expect(problems).toEqual([`✗ journal: settlement.journal ${join(file, "journal.jsonl")} cannot be created: ${file} is not a folder`]);
  });

  it("reports a damaged journal that start would refuse", async () => {
    await writeFile(join(dir, "damaged.jsonl"), "{not json\n");
    const { problems } = await checkVariant({ settlement: { journal: "damaged.jsonl" } });
    expect(problems).toEqual([`✗ journal: settlement.journal ${join(dir, "damaged.jsonl")} is damaged at line 1: start refuses it`]);
  });

  it('warns that journal "none" loses pending work, and still checks out', async () => {
    const { lines, problems } = await checkVariant({ settlement: { journal: "none" } });
    expect(problems).toEqual([]);
    expect(lines).toContain('⚠ journal: settlement.journal is "none": accepted payments not yet finalized are lost on restart');
    expect(lines.at(-1)).toBe(`${CHECKS_OUT_LINE} (3 warnings)`);
  });

  it("prints a forced search path, and reports an invalid SVC_POSEIDON_PATH as the one problem, naming the variable only", async () => {
    const forced = await check(stack.files.facilitatorToml, { ...env, SVC_POSEIDON_PATH: "portable" });
    expect(forced.problems).toEqual([]);
    expect(forced.lines).toContain("✓ poseidon: burn addresses derive with native, path portable (SVC_POSEIDON=auto, SVC_POSEIDON_PATH=portable)");

    const invalid = await check(stack.files.facilitatorToml, { ...env, SVC_POSEIDON_PATH: "warp-drive-4711" });
    expect(invalid.problems).toEqual(["✗ poseidon: SVC_POSEIDON_PATH must be one of auto, avx512-ifma, avx2, mulx-adx, portable."]);
    expect(invalid.lines.at(-1)).toBe("check failed: 1 problem");
    expect(invalid.lines.join("\n")).not.toContain("warp-drive-4711");
  });

  it("reports a splitter whose on-chain bps differs from fee.bps", async () => {
    const splitter = stack.deployment.feeSplitter;
    const { problems } = await checkVariant({
      settlement: { treasury: splitter },
      fee: { bps: 250, min_per_payment: "0", recipient: undefined, splitter },
    });
    expect(problems).toEqual([`✗ splitter: fee splitter ${splitter} splits ${stack.deployment.feeSplit.bps} bps on-chain but fee.bps is 250`]);
  });

  it("reports a splitter address without code in split mode", async () => {
    const eoa = stack.deployment.accounts.payee.address;
    const { lines, problems } = await checkVariant({
      settlement: { treasury: eoa },
      fee: { bps: 100, min_per_payment: "0", recipient: undefined, splitter: eoa },
    });
    expect(problems).toEqual([`✗ splitter: settlement.treasury ${eoa} (the fee splitter) has no deployed code on chain 31337`]);
    expect(lines).toContain("- splitter: bps(), payee() and feeRecipient() not read: there is no contract to read them from");
  });

  it("checks snarkjs circuit files as start does: a pair proving the deployment's statement, then a missing file and the other version's calculator", async () => {
    const [v1, v2] = await Promise.all([buildSingleTeleportCircuit({ protocol: "zerc20-v1" }), buildSingleTeleportCircuit({ protocol: "zerc20-v2" })]);
    const snarkjs = (wasm: string, zkey: string) => checkVariant({ prover: { kind: "snarkjs", wasm, zkey, concurrency: 2 } });
    const good = await snarkjs(v2.wasmPath, v2.zkeyPath);
    expect(good.problems).toEqual([]);
    expect(good.lines.find((line) => line.startsWith("✓ prover:"))).toMatch(
      new RegExp(
        `^✓ prover: kind snarkjs: ${v2.wasmPath} and ${v2.zkeyPath} prove the zerc20-v2 single-teleport statement \\(witness of \\d+ signals\\); 2 prover threads$`,
      ),
    );
    const missing = join(dir, "missing.wasm");
    expect((await snarkjs(missing, v2.zkeyPath)).problems).toEqual([`✗ prover: prover.wasm (${missing}) cannot be read (ENOENT).`]);
    expect((await snarkjs(v1.wasmPath, v2.zkeyPath)).problems).toEqual([
      expect.stringMatching(/^✗ prover: prover\.wasm \(.*\) does not prove the zerc20-v2 single-teleport statement: its witness calculator refuses a true one/),
    ]);
    // On a fresh clone the circuits are built first (a minute or two, once).
  }, 600_000);

  it("reports an unreachable indexer", async () => {
    const port = await closedPort();
    const { problems } = await checkVariant({ network: { indexer_url: `http://127.0.0.1:${port}` } });
    expect(problems).toEqual([`✗ indexer: indexer http://127.0.0.1:${port}/healthz is unreachable: ECONNREFUSED`]);
  });

  it("warns about credentials in the RPC URL and prints it redacted", async () => {
    const rpcUrl = `${stack.deployment.rpcUrl}/?apikey=rpc-provider-secret-4711`;
    const { lines, problems } = await checkVariant({ network: { rpc_url: rpcUrl } });
    expect(problems).toEqual([]);
    expect(lines).toContain('⚠ rpc: network.rpc_url embeds credentials (query parameter "apikey"); keep them out of the file where the provider allows');
    expect(lines).toContain(`✓ rpc: RPC ${stack.deployment.rpcUrl}/?apikey=*** answers with chain 31337 (= network.chain_id)`);
    expect(lines.join("\n")).not.toContain("rpc-provider-secret-4711");
  });

  it("probes every endpoint of network.rpc_urls, says which answered and names a wrong one by its key", async () => {
    const port = await closedPort();
    // An endpoint that answers every call with chain 1, its key in the query.
    const otherChain = createServer(async (request, response) => {
      const body = JSON.parse(await text(request)) as { id: number };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: "0x1" }));
    });
    await new Promise<void>((resolve) => otherChain.listen(0, "127.0.0.1", resolve));
    try {
      const { port: otherPort } = otherChain.address() as AddressInfo;
      const rpc_urls = [stack.deployment.rpcUrl, `http://127.0.0.1:${port}/`, `http://127.0.0.1:${otherPort}/?apikey=other-chain-secret-4711`];
      const { lines, problems } = await checkVariant({ network: { rpc_url: undefined, rpc_urls } });
      expect(lines.filter((line) => line.includes(" rpc: "))).toEqual([
        `✓ rpc: RPC network.rpc_urls[0] ${stack.deployment.rpcUrl}/ answers with chain 31337 (= network.chain_id)`,
        `✗ rpc: RPC network.rpc_urls[1] http://127.0.0.1:${port}/ is unreachable: ECONNREFUSED`,
        '⚠ rpc: network.rpc_urls[2] embeds credentials (query parameter "apikey"); keep them out of the file where the provider allows',
        "✗ rpc: network.chain_id is 31337 but the RPC at network.rpc_urls[2] reports chain 1.",
      ]);
      expect(problems).toHaveLength(2);
      // The contract probes run on the endpoint that answered right.
      expect(lines).toContain(`✓ contracts: network.token ${stack.deployment.token} has deployed code`);
      expect(lines.join("\n")).not.toContain("other-chain-secret-4711");
    } finally {
      await new Promise((resolve) => otherChain.close(resolve));
    }
  });

  it("prints one JSON object per finding and a summary object in json format", async () => {
    const port = await closedPort();
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, {
      network: { indexer_url: `http://127.0.0.1:${port}` },
    });
    let text = "";
    const findings = await runCheck({ configPath, env, write: (chunk) => (text += chunk), format: "json" });
    const lines = text.trimEnd().split("\n");
    printed.push(...lines);
    const objects: unknown[] = lines.map((line) => JSON.parse(line));
    expect(objects.slice(0, -1)).toEqual(findings);
    expect(objects.at(-1)).toEqual({ result: "failed", problems: 1, warnings: 2 });
    expect(findings.filter((finding) => finding.status === "fail")).toEqual([
      {
        probe: "indexer",
        status: "fail",
        message: `indexer http://127.0.0.1:${port}/healthz is unreachable: ECONNREFUSED`,
      },
    ]);
  });

  it("never prints a private key or the admin token", () => {
    const secrets = [
      env["SVC_TREASURY_PK"],
      env["SVC_RELAYER_PK"],
      env["SVC_ADMIN_TOKEN"],
      ...Object.values(stack.deployment.accounts).map((account) => account.privateKey),
    ].filter((value): value is string => value !== undefined);
    expect(secrets.length).toBeGreaterThan(3);
    expect(printed.length).toBeGreaterThan(50);
    const output = printed.join("\n").toLowerCase();
    for (const secret of secrets) expect(output).not.toContain(secret.toLowerCase().replace(/^0x/, ""));
  });
});
