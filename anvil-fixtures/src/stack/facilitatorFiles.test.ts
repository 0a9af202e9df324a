import { describe, expect, it } from "vitest";
import { historyFileOf, journalFileOf, renderFacilitatorEnv, renderFacilitatorToml, type FacilitatorFilesInput } from "./facilitatorFiles.js";

const input: FacilitatorFilesInput = {
  rpcUrl: "http://127.0.0.1:8545",
  indexerUrl: "http://127.0.0.1:4040",
  deciderUrl: "http://127.0.0.1:4041",
  chainId: 31337,
  protocol: "zerc20-v2",
  token: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  verifier: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  hub: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  permitBurner: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
  treasury: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  feeRecipient: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  journal: "journal-0123456789ab.jsonl",
  treasuryKey: `0x${"11".repeat(32)}`,
  relayerKey: `0x${"22".repeat(32)}`,
  listenPort: 4032,
};

describe("journalFileOf", () => {
  it("names the journal after the chain's genesis block, so two chains never share one", () => {
    expect(journalFileOf(`0x${"AB".repeat(32)}`)).toBe("journal-abababababab.jsonl");
    expect(journalFileOf(`0x${"cd".repeat(32)}`)).not.toBe(journalFileOf(`0x${"ab".repeat(32)}`));
  });
});

describe("renderFacilitatorToml", () => {
  it("leaves the prover to the default (the fixture prover) on a stack of fixture proofs", () => {
    const toml = renderFacilitatorToml(input);
    expect(toml).toContain('journal = "journal-0123456789ab.jsonl"');
    expect(toml).not.toContain("[prover]");
    expect(toml).toMatch(/\nburn_address_pool_size = 4\n$/);
  });

  it("names the token's deployment block when the deployment knows it, so the transfer-tree follower starts there", () => {
    expect(renderFacilitatorToml({ ...input, deployBlockNumber: "42" })).toContain('hub = "0x');
    expect(renderFacilitatorToml({ ...input, deployBlockNumber: "42" })).toMatch(/\ndeploy_block = 42\n/);
    expect(renderFacilitatorToml(input)).not.toContain("deploy_block");
  });

  it("names the snarkjs prover and the circuit files on a stack of real proofs, as the last table", () => {
    const toml = renderFacilitatorToml({
      ...input,
      singleTeleportCircuit: {
        wasmPath: "/repo/.cache/circuits/abc/singleTeleportV2_js/singleTeleportV2.wasm",
        zkeyPath: "/repo/.cache/circuits/abc/singleTeleport.zkey",
      },
    });
    const prover = toml.slice(toml.indexOf("\n[prover]\n"));
    expect(prover.split("\n").filter((line) => line !== "" && !line.startsWith("#"))).toEqual([
      "[prover]",
      'kind = "snarkjs"',
      'wasm = "/repo/.cache/circuits/abc/singleTeleportV2_js/singleTeleportV2.wasm"',
      'zkey = "/repo/.cache/circuits/abc/singleTeleport.zkey"',
    ]);
    expect(toml.match(/^\[\w+\]$/gm)).toEqual(["[network]", "[listen]", "[settlement]", "[fee]", "[daemon]", "[prover]"]);
  });
});

describe("renderFacilitatorEnv", () => {
  const variables = (text: string) =>
    Object.fromEntries(
      text
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split("=", 2)),
    );

  it("writes the keys and a fresh admin token, and no history variable without history", () => {
    const env = variables(renderFacilitatorEnv(input));
    expect(Object.keys(env).sort()).toEqual(["SVC_ADMIN_TOKEN", "SVC_RELAYER_PK", "SVC_TREASURY_PK"]);
  });

  it("switches payment history on with all six variables, a fresh identity secret and the payer wallet", () => {
    const payerAddress = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
    const path = `/stack/${historyFileOf(`0x${"ab".repeat(32)}`)}`;
    const [first, second] = [0, 1].map(() => variables(renderFacilitatorEnv({ ...input, paymentHistory: { path, payerAddress } })));
    expect(first).toMatchObject({ PAYMENT_HISTORY_PATH: "/stack/payment-history-abababababab.jsonl", HISTORY_PAYER_ADDRESS: payerAddress });
    for (const name of ["HISTORY_PAYER_TENANT", "HISTORY_PAYER_ACTOR", "HISTORY_PROVIDER_TENANT", "HISTORY_PROVIDER_ACTOR"])
      expect(first?.[name]).toMatch(/^[\x21-\x7e]{1,128}$/);
    expect(first?.HISTORY_IDENTITY_SECRET?.length).toBeGreaterThanOrEqual(32);
    expect(first?.HISTORY_IDENTITY_SECRET).not.toBe(second?.HISTORY_IDENTITY_SECRET);
  });
});
