/**
 * Test helper: one HTTP/1.1 request written byte for byte on a fresh socket. `fetch` and `http.request`
 * validate and normalise what they send (header characters, duplicate lengths, encodings), which is exactly
 * what a hostile-input test must not have done for it. Test-only code.
 */
import { connect } from "node:net";

/** A request as it goes on the wire; `Host`, `Connection: close` and (unless given) `Content-Length` are added. */
export type RawRequest = {
  method: string;
  /** Request target, sent as written (`/settle`, `/admin/settlements?state=x`). */
  path: string;
  /** Header lines in order; a repeated name is sent twice. Values are written as latin1 bytes. */
  headers?: readonly (readonly [string, string])[];
  body?: Buffer | string;
};

/** What came back: the status line's code, the headers (lower-cased names, last value wins) and the body text. */
export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * Sends `request` to `baseUrl` (`http://host:port`) and reads the whole answer. Rejects when nothing
 * parseable arrives before the socket closes or `timeoutMs` passes, so a server that hangs fails the test.
 */
export function sendRawRequest(baseUrl: string, request: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const body = typeof request.body === "string" ? Buffer.from(request.body, "utf8") : (request.body ?? Buffer.alloc(0));
  const headers = request.headers ?? [];
  const framed = headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name));
  const lines = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    "Connection: close",
    ...headers.map(([name, value]) => `${name}: ${value}`),
    ...(framed ? [] : [`Content-Length: ${body.length}`]),
  ];
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");

  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer to ${request.method} ${request.path} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A server may reset the socket after answering a request it refused mid-body; the answer still counts.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed) resolve(parsed);
      else reject(new Error(`the connection closed without an HTTP answer to ${request.method} ${request.path}`));
    });
    socket.write(Buffer.concat([head, body]));
  });
}

function parseResponse(raw: Buffer): RawResponse | undefined {
  const text = raw.toString("latin1");
  const split = text.indexOf("\r\n\r\n");
  if (split === -1) return undefined;
  const [statusLine = "", ...headerLines] = text.slice(0, split).split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) return undefined;
  // An interim answer (`100 Continue`) precedes the real one.
  if (match[1]?.startsWith("1")) return parseResponse(raw.subarray(split + 4));
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rawBody = raw.subarray(Buffer.byteLength(text.slice(0, split + 4), "latin1"));
  const body = headers["transfer-encoding"]?.toLowerCase() === "chunked" ? dechunk(rawBody) : rawBody;
  return { status: Number(match[1]), headers, body: body.toString("utf8") };
}

function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", offset, "latin1");
    if (lineEnd === -1) break;
    const size = Number.parseInt(raw.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
