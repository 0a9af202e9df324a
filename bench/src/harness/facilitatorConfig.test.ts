import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigTemplateError, writeFacilitatorConfig } from "./facilitatorConfig.js";

const dir = await mkdtemp(join(tmpdir(), "bench-config-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const TEMPLATE = `profile = "local"
[network]
rpc_url = "http://127.0.0.1:8545"
indexer_url = "http://127.0.0.1:4040"
[listen]
port = 4032
[settlement]
journal = "journal.jsonl"
challenge_ttl_seconds = 300
[daemon]
finalize_interval_ms = 1000
max_open_challenges = 1000
burn_address_pool_size = 4
`;

const overrides = {
  rpcUrl: "http://127.0.0.1:9999",
  journal: "f1.jsonl",
  challengeTtlSeconds: 1800,
  finalizeIntervalMs: 2000,
  maxOpenChallenges: 50,
  burnAddressPoolSize: 16,
  burnAddressWorkers: 2,
};

describe("writeFacilitatorConfig", () => {
  it("changes exactly the bench's keys and keeps everything else", async () => {
    await writeFile(join(dir, "template.toml"), TEMPLATE);
    await writeFacilitatorConfig(join(dir, "template.toml"), join(dir, "out.toml"), { ...overrides, indexerUrl: "http://127.0.0.1:5050" });
    expect(await readFile(join(dir, "out.toml"), "utf8")).toBe(`profile = "local"
[network]
rpc_url = "http://127.0.0.1:9999"
indexer_url = "http://127.0.0.1:5050"
[listen]
port = 0
[settlement]
journal = "f1.jsonl"
challenge_ttl_seconds = 1800
[daemon]
burn_address_workers = 2
finalize_interval_ms = 2000
max_open_challenges = 50
burn_address_pool_size = 16
`);
  });

  it("adds the pool size to [daemon] when the template does not set it", async () => {
    await writeFile(join(dir, "nopool.toml"), TEMPLATE.replace("burn_address_pool_size = 4\n", ""));
    await writeFacilitatorConfig(join(dir, "nopool.toml"), join(dir, "nopool-out.toml"), overrides);
    expect(await readFile(join(dir, "nopool-out.toml"), "utf8")).toContain(
      "[daemon]\nburn_address_workers = 2\nburn_address_pool_size = 16\nfinalize_interval_ms = 2000\n",
    );
  });

  it("appends a [finalize] table with the policy when the template has none", async () => {
    await writeFile(join(dir, "policy.toml"), TEMPLATE);
    const finalizePolicy = { minDelaySeconds: 2, maxDelaySeconds: 15, minAnonymitySet: 5 };
    await writeFacilitatorConfig(join(dir, "policy.toml"), join(dir, "policy-out.toml"), { ...overrides, finalizePolicy });
    expect(await readFile(join(dir, "policy-out.toml"), "utf8")).toMatch(
      /burn_address_pool_size = 16\n\n\[finalize\]\nmin_delay_seconds = 2\nmax_delay_seconds = 15\nmin_anonymity_set = 5\n$/,
    );
  });

  it("sets the policy inside an existing [finalize] table", async () => {
    await writeFile(join(dir, "hasfinalize.toml"), `${TEMPLATE}[finalize]\nmin_delay_seconds = 0\n`);
    const finalizePolicy = { minDelaySeconds: 2, maxDelaySeconds: 15, minAnonymitySet: 5 };
    await writeFacilitatorConfig(join(dir, "hasfinalize.toml"), join(dir, "hasfinalize-out.toml"), { ...overrides, finalizePolicy });
    const written = await readFile(join(dir, "hasfinalize-out.toml"), "utf8");
    expect(written.match(/\[finalize\]/g)).toHaveLength(1);
    expect(written).toMatch(/\[finalize\]\nmax_delay_seconds = 15\nmin_anonymity_set = 5\nmin_delay_seconds = 2\n$/);
  });

  it("appends a [finalize] table with the witness source when asked, and sets it in an existing table", async () => {
    await writeFile(join(dir, "witnesses.toml"), TEMPLATE);
    await writeFacilitatorConfig(join(dir, "witnesses.toml"), join(dir, "witnesses-out.toml"), { ...overrides, witnesses: "indexer" });
    expect(await readFile(join(dir, "witnesses-out.toml"), "utf8")).toMatch(/burn_address_pool_size = 16\n\n\[finalize\]\nwitnesses = "indexer"\n$/);
    await writeFile(join(dir, "haswitnesses.toml"), `${TEMPLATE}[finalize]\nwitnesses = "self"\n`);
    await writeFacilitatorConfig(join(dir, "haswitnesses.toml"), join(dir, "haswitnesses-out.toml"), { ...overrides, witnesses: "indexer" });
    const written = await readFile(join(dir, "haswitnesses-out.toml"), "utf8");
    expect(written.match(/witnesses = /g)).toHaveLength(1);
    expect(written).toMatch(/\[finalize\]\nwitnesses = "indexer"\n$/);
  });

  it("adds confirmations to [network] and the permit receipt bound to [settlement] when asked", async () => {
    await writeFile(join(dir, "confirmations.toml"), TEMPLATE);
    await writeFacilitatorConfig(join(dir, "confirmations.toml"), join(dir, "confirmations-out.toml"), {
      ...overrides,
      confirmations: 2,
      permitReceiptTimeoutMs: 30_000,
    });
    const written = await readFile(join(dir, "confirmations-out.toml"), "utf8");
    expect(written).toContain("[network]\nconfirmations = 2\nrpc_url = ");
    expect(written).toContain("[settlement]\npermit_receipt_timeout_ms = 30000\njournal = ");
  });

  it("appends a [gas] table with the replacement delay when asked", async () => {
    await writeFile(join(dir, "gas.toml"), TEMPLATE);
    await writeFacilitatorConfig(join(dir, "gas.toml"), join(dir, "gas-out.toml"), { ...overrides, replaceAfterSeconds: 0.6 });
    expect(await readFile(join(dir, "gas-out.toml"), "utf8")).toMatch(/burn_address_pool_size = 16\n\n\[gas\]\nreplace_after_seconds = 0.6\n$/);
  });

  it("refuses a template that lacks one of the keys", async () => {
    await writeFile(join(dir, "short.toml"), TEMPLATE.replace("max_open_challenges = 1000\n", ""));
    await expect(writeFacilitatorConfig(join(dir, "short.toml"), join(dir, "never.toml"), overrides)).rejects.toBeInstanceOf(ConfigTemplateError);
  });
});
