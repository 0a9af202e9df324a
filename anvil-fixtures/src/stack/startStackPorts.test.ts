/**
 * startStack on a port another program holds: the taken port comes back as a named error naming the service,
 * whether it is anvil's (bound first) or the decider's (bound after the deployment), and the stack stops what it
 * had started and writes nothing.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, type OccupiedPort, occupyPort } from "../http/testing/occupyPort.js";
import { StackPortInUseError } from "./errors.js";
import { startStack } from "./startStack.js";

let held: OccupiedPort | undefined;
let dir: string | undefined;
afterEach(async () => {
  await held?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  held = undefined;
  dir = undefined;
});

async function answersRpc(rpcUrl: string): Promise<boolean> {
  try {
    await fetch(rpcUrl, { method: "POST", body: "{}", signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

describe("startStack on a taken port", () => {
  it("anvil's: StackPortInUseError for anvil, no files", async () => {
    held = await occupyPort();
    dir = await mkdtemp(join(tmpdir(), "stack-ports-"));
    const error = await startStack({ dir, anvilPort: held.port }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StackPortInUseError);
    expect(error).toMatchObject({ service: "anvil", port: held.port, shortMessage: `port ${held.port} (anvil) is in use` });
    expect(await readdir(dir)).toEqual([]);
  });

  it("the decider's: StackPortInUseError for the decider, anvil stopped, no files", async () => {
    held = await occupyPort();
    dir = await mkdtemp(join(tmpdir(), "stack-ports-"));
    const anvilPort = await freePort();
    const error = await startStack({ dir, anvilPort, deciderPort: held.port }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StackPortInUseError);
    expect(error).toMatchObject({ service: "decider", port: held.port });
    expect(await answersRpc(`http://127.0.0.1:${anvilPort}`)).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });
});
