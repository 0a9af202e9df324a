import { afterEach, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "../testing/startTestServer.js";
import { HostNotAllowedError, HttpRequestFailedError, HttpTimeoutError, TooManyRedirectsError } from "./errors.js";
import { fetchWithPolicy } from "./fetchWithPolicy.js";

const servers: TestServer[] = [];
async function server(handle: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const started = await startTestServer(handle);
  servers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((started) => started.close()));
});

const loopback = ["127.0.0.1"];

describe("fetchWithPolicy", () => {
  it("refuses a host off the allowlist before any request leaves", async () => {
    const target = await server((_request, response) => response.end("secret"));
    const url = new URL(`http://localhost:${target.port}/`);
    await expect(fetchWithPolicy({ url, allowedHosts: ["127.0.0.1"], timeoutMs: 1000 })).rejects.toThrow(HostNotAllowedError);
    expect(target.requests).toEqual([]);
  });

  it("sends a method and body, keeps them across 307 and drops them on 303, as browsers do", async () => {
    const seen: string[] = [];
    const target = await server((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        seen.push(`${request.method} ${request.url} ${body}`);
        if (request.url === "/keep") response.writeHead(307, { location: "/kept" }).end();
        else if (request.url === "/see-other") response.writeHead(303, { location: "/seen" }).end();
        else response.end("done");
      });
    });
    for (const path of ["/keep", "/see-other"]) {
      const response = await fetchWithPolicy({ url: new URL(`${target.origin}${path}`), allowedHosts: loopback, timeoutMs: 1000, method: "POST", body: "q=1" });
      expect(response.body.toString()).toBe("done");
    }
    expect(seen).toEqual(["POST /keep q=1", "POST /kept q=1", "POST /see-other q=1", "GET /seen "]);
  });

  it("re-checks every redirect hop before it leaves", async () => {
    const forbidden = await server((_request, response) => response.end("should never be asked"));
    const first = await server((_request, response) => {
      response.writeHead(302, { location: `http://localhost:${forbidden.port}/next` }).end();
    });
    const error = await fetchWithPolicy({ url: new URL(`${first.origin}/start`), allowedHosts: loopback, timeoutMs: 1000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HostNotAllowedError);
    expect(error).toMatchObject({ host: "localhost" });
    expect(first.requests.map((request) => request.path)).toEqual(["/start"]);
    expect(forbidden.requests).toEqual([]);
  });

  it("follows allowed redirects, relative ones included, and reports the last hop", async () => {
    const target = await server((request, response) => {
      if (request.url === "/a") response.writeHead(301, { location: "/b" }).end();
      else if (request.url === "/b") response.writeHead(307, { location: `http://127.0.0.1:${target.port}/c?x=1` }).end();
      else response.end("arrived");
    });
    const response = await fetchWithPolicy({ url: new URL(`${target.origin}/a`), allowedHosts: loopback, timeoutMs: 1000 });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("arrived");
    expect(response.url.href).toBe(`${target.origin}/c?x=1`);
    expect(target.requests.map((request) => request.path)).toEqual(["/a", "/b", "/c?x=1"]);
  });

  it("returns a redirect as it is when told not to follow (a paid request never moves)", async () => {
    const target = await server((_request, response) => response.writeHead(302, { location: "/elsewhere" }).end());
    const response = await fetchWithPolicy({
      url: new URL(`${target.origin}/paid`),
      allowedHosts: loopback,
      timeoutMs: 1000,
      maxRedirects: 0,
      headers: { "PAYMENT-SIGNATURE": "abc" },
    });
    expect(response.status).toBe(302);
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]?.headers["payment-signature"]).toBe("abc");
  });

  it("stops a redirect loop", async () => {
    const target = await server((_request, response) => response.writeHead(302, { location: "/again" }).end());
    await expect(fetchWithPolicy({ url: new URL(`${target.origin}/`), allowedHosts: loopback, timeoutMs: 1000, maxRedirects: 3 })).rejects.toThrow(
      TooManyRedirectsError,
    );
    expect(target.requests).toHaveLength(4);
  });

  it("times out a silent server: the request arrived, so it may have been acted on", async () => {
    const target = await server(() => undefined);
    await expect(fetchWithPolicy({ url: new URL(`${target.origin}/slow`), allowedHosts: loopback, timeoutMs: 100 })).rejects.toThrow(HttpTimeoutError);
    expect(target.requests).toHaveLength(1);
  });

  it("tells a refused connection (never sent) from a dropped one (maybe sent)", async () => {
    const closed = await server(() => undefined);
    await closed.close();
    const refused = await fetchWithPolicy({ url: new URL(`${closed.origin}/`), allowedHosts: loopback, timeoutMs: 1000 }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(HttpRequestFailedError);
    expect(refused).toMatchObject({ mayHaveBeenSent: false });

    const dropping = await server((request) => request.socket.destroy());
    const dropped = await fetchWithPolicy({ url: new URL(`${dropping.origin}/`), allowedHosts: loopback, timeoutMs: 1000 }).catch((caught: unknown) => caught);
    expect(dropped).toBeInstanceOf(HttpRequestFailedError);
    expect(dropped).toMatchObject({ mayHaveBeenSent: true });
  });
});
