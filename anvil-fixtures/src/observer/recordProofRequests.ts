/**
 * A recording HTTP proxy in front of an indexer: forwards every request unchanged and keeps the leaf indices of
 * each `POST /proofs`, which is what the indexer's operator sees of a facilitator's mints. Point the
 * facilitator's `network.indexer_url` at `url`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProofRequest } from "./decoysAfterFiltering.js";

/** A running recorder. */
export type ProofRequestRecorder = {
  /** The proxy's base URL, on loopback. */
  url: string;
  /** The `/proofs` requests forwarded so far, in arrival order. */
  requests: ProofRequest[];
  close: () => Promise<void>;
};

/** Headers that describe this hop, not the request: fetch sets its own. */
const HOP_HEADERS = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding"]);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The leaf indices of a `/proofs` body, or `undefined` when it is not one (the indexer then refuses it). */
function parseProofRequest(body: Buffer): ProofRequest | undefined {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { target_index?: unknown; leaf_indices?: unknown };
    if (!Array.isArray(parsed.leaf_indices) || (typeof parsed.target_index !== "number" && typeof parsed.target_index !== "string")) return undefined;
    return { targetIndex: BigInt(parsed.target_index), leafIndices: parsed.leaf_indices.map((leaf) => BigInt(leaf as number | string)) };
  } catch {
    return undefined;
  }
}

/** Starts the proxy to `targetUrl` (the indexer's base URL) on a free loopback port. */
export async function recordProofRequests(targetUrl: string): Promise<ProofRequestRecorder> {
  const requests: ProofRequest[] = [];
  const target = new URL(targetUrl);
  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    if (request.method === "POST" && request.url?.split("?")[0] === "/proofs") {
      const recorded = parseProofRequest(body);
      if (recorded !== undefined) requests.push(recorded);
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === "string" && !HOP_HEADERS.has(entry[0])),
    );
    const answer = await fetch(new URL(request.url ?? "/", target), {
      method: request.method,
      headers,
      ...(body.length === 0 ? {} : { body }),
    });
    const content = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    response.end(content);
  };
  const server = createServer((request, response) => {
    forward(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
