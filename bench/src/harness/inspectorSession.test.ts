import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiled, summarizeProfiles } from "./cpuProfile.js";
import { attachInspector, INSPECT_NODE_OPTIONS, memoryAfterGc, type InspectorSession } from "./inspectorSession.js";

let child: ChildProcess;
let session: InspectorSession;

beforeAll(async () => {
  // A process that keeps allocating and hashing, so a profile of it has samples.
  child = spawn(
    process.execPath,
    ["-e", "const c=require('crypto');setInterval(()=>{for(let i=0;i<2000;i++)c.createHash('sha256').update(String(i)).digest()},5)"],
    {
      env: { PATH: process.env.PATH, NODE_OPTIONS: INSPECT_NODE_OPTIONS },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const lines: string[] = [];
  await new Promise<void>((resolve) => {
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      if (line.includes("Debugger listening")) resolve();
    });
  });
  session = await attachInspector("the test child", lines);
});

afterAll(() => {
  session?.close();
  child?.kill();
});

describe("inspector session", () => {
  it("forces a GC and reads the child's memory", async () => {
    const memory = await memoryAfterGc(session);
    expect(memory.heapUsed).toBeGreaterThan(1_000_000);
    expect(memory.rss).toBeGreaterThan(memory.heapUsed);
  });

  it("profiles a window and reads a profile large enough to need extended WebSocket frames", async () => {
    const { result, profile } = await profiled(session, () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 300)));
    expect(result).toBe("done");
    expect(profile.samples.length).toBeGreaterThan(10);
    expect(summarizeProfiles([profile]).totalMs).toBeGreaterThan(0);
  });
});
