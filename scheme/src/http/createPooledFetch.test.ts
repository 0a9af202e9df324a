/**
 * `createPooledFetch` answers a JSON client as the global `fetch` does: the same status, headers and body, and
 * the same failures read through `requestFacilitatorJson` (refused, a timeout before the headers or in the
 * middle of the body, a refused connection), from a server scripted per test. What it does differently is
 * pinned too: a redirect reaches the caller unfollowed, and idle connections leave the process free to exit.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createPooledFetch, type PooledFetch } from "./createPooledFetch.js";
import { requestFacilitatorJson } from "./requestFacilitatorJson.js";

let pooled: PooledFetch;
let scripted: { url: string; close: () => Promise<void> };
let answer: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
const bodies: string[] = [];

beforeAll(async () => {
  pooled = createPooledFetch({ maxResponseBytes: 4096 });
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      bodies.push(body);
      answer(request, response);
    });
  });
  // The server's own sockets must not hold the process, so the exit test sees only the client's.
  server.on("connection", (socket) => socket.unref());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  scripted = {
    url: `http://127.0.0.1:${port}/challenge`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
});

afterAll(async () => {
  await pooled?.close();
  await scripted?.close();
});

const post = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ amount: "1000" }) } as const;

/** The same request through both fetches, as the challenge client sends it. */
async function both(timeoutMs = 2_000) {
  const request = (fetch: typeof globalThis.fetch) => requestFacilitatorJson({ fetch, url: scripted.url, init: post, timeoutMs });
  return { library: await request(globalThis.fetch), ours: await request(pooled.fetch) };
}

/** A failure as a caller reads it: the kind, and the thrown error's name (not its message, which names the fetch). */
function readable(result: Awaited<ReturnType<typeof requestFacilitatorJson>>) {
  if (result.ok) return result;
  return { failure: result.failure, cause: result.cause instanceof Error ? result.cause.name : undefined };
}

describe("createPooledFetch", () => {
  // First, while no earlier exchange's connection is still closing and would shift the count.
  it("leaves no connection holding the process once the answer is read", async () => {
    const answering = new Promise<() => void>((answered) => {
      answer = (_request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.write("{");
        answered(() => response.end("}"));
      };
    });
    const fresh = createPooledFetch();
    const holding = () => process.getActiveResourcesInfo().filter((resource) => resource === "TCPSocketWrap").length;
    const before = holding();
    try {
      const pending = fresh.fetch(scripted.url, post);
      const finish = await answering;
      // While the answer is coming its connection holds the process (the server's side does not: unref'd).
      expect(holding()).toBe(before + 1);
      finish();
      expect(await (await pending).text()).toBe("{}");
      await new Promise((resolve) => setImmediate(resolve));
      expect(holding()).toBe(before);
    } finally {
      await fresh.close();
    }
  });

  it("sends the method, headers and body, and returns status, headers and body as fetch does", async () => {
    answer = (request, response) =>
      response.writeHead(200, { "content-type": "application/json", "x-seen-type": request.headers["content-type"] ?? "" }).end('{"payTo":"0x01"}');
    bodies.length = 0;
    const read = async (fetch: typeof globalThis.fetch) => {
      const response = await fetch(scripted.url, post);
      return {
        status: response.status,
        statusText: response.statusText,
        type: response.headers.get("content-type"),
        seen: response.headers.get("x-seen-type"),
        text: await response.text(),
      };
    };
    const theirs = await read(globalThis.fetch);
    expect(theirs).toEqual({ status: 200, statusText: "OK", type: "application/json", seen: "application/json", text: '{"payTo":"0x01"}' });
    expect(await read(pooled.fetch)).toEqual(theirs);
    expect(bodies).toEqual([post.body, post.body]);
  });

  const refusals: [string, (response: ServerResponse) => void][] = [
    ["a 429 with the facilitator's error", (response) => response.writeHead(429, { "content-type": "application/json" }).end('{"error":"too many offers"}')],
    ["a 503 without a body", (response) => response.writeHead(503).end()],
    ["a 200 that is not JSON", (response) => response.writeHead(200).end("<html>")],
    ["a 204", (response) => response.writeHead(204).end()],
  ];
  for (const [name, reply] of refusals) {
    it(`reads ${name} as fetch does`, async () => {
      answer = (_request, response) => reply(response);
      const { library, ours } = await both();
      expect(readable(ours)).toEqual(readable(library));
    });
  }

  it("times out before the headers as fetch does", async () => {
    answer = () => undefined;
    const { library, ours } = await both(150);
    expect(readable(library)).toEqual({ failure: { kind: "timeout", timeoutMs: 150 }, cause: "TimeoutError" });
    expect(readable(ours)).toEqual(readable(library));
  });

  it("times out in the middle of the body as fetch does", async () => {
    answer = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"payTo":');
    };
    const { library, ours } = await both(150);
    expect(readable(library)).toEqual({ failure: { kind: "timeout", timeoutMs: 150 }, cause: "TimeoutError" });
    expect(readable(ours)).toEqual(readable(library));
  });

  it("reads a refused connection as unreachable, with the system error's code", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const request = (fetch: typeof globalThis.fetch) =>
      requestFacilitatorJson({ fetch, url: `http://127.0.0.1:${port}/challenge`, init: post, timeoutMs: 2_000 });
    const library = await request(globalThis.fetch);
    const ours = await request(pooled.fetch);
    expect(library).toMatchObject({ ok: false, failure: { kind: "unreachable" } });
    expect(ours).toMatchObject({ ok: false, failure: { kind: "unreachable" } });
    expect(ours.ok ? undefined : Reflect.get(ours.cause as object, "code")).toBe("ECONNREFUSED");
  });

  it("stops reading a body one chunk past its limit", async () => {
    answer = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("x".repeat(1024 * 1024));
    };
    // A socket read brings at most 64 KiB, so a body read on to its end would be 16 times that.
    const text = await (await pooled.fetch(scripted.url, post)).text();
    expect(text.length).toBeGreaterThan(4096);
    expect(text.length).toBeLessThanOrEqual(4096 + 64 * 1024);
  });

  it("returns a redirect as it is, without following it", async () => {
    answer = (_request, response) => response.writeHead(307, { location: "/elsewhere" }).end();
    bodies.length = 0;
    const response = await pooled.fetch(scripted.url, post);
    expect({ status: response.status, location: response.headers.get("location") }).toEqual({ status: 307, location: "/elsewhere" });
    expect(bodies).toHaveLength(1);
  });

  it("refuses a Request object and a non-string body", async () => {
    await expect(pooled.fetch(new Request(scripted.url))).rejects.toThrow(TypeError);
    await expect(pooled.fetch(scripted.url, { method: "POST", body: new Uint8Array([1]) })).rejects.toThrow(TypeError);
  });
});
