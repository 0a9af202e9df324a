import { startTestServer, type TestServer } from "./startTestServer.js";

/** Response headers a relay must not copy: the proxy sets its own framing. */
const HOP_BY_HOP = new Set(["connection", "content-length", "transfer-encoding", "keep-alive"]);

/** A proxy in front of a provider that loses answers on purpose. */
export type LossyProxy = TestServer & {
  /** How many more answers to paid requests to lose; decremented as they are lost. */
  dropPaidAnswers: number;
};

/**
 * An HTTP proxy to `target` that, while `dropPaidAnswers` is positive, forwards a request carrying
 * `PAYMENT-SIGNATURE`, waits until the provider has answered completely (so it has verified and settled),
 * and then cuts the client's connection instead of relaying the answer: a lost response after the payment
 * left, exactly the case `resend` exists for.
 */
export async function startLossyProxy(target: string, dropPaidAnswers: number): Promise<LossyProxy> {
  const proxy: LossyProxy = Object.assign(
    await startTestServer((request, response) => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === "string" && name !== "host" && name !== "connection") headers[name] = value;
        }
        const upstream = await fetch(`${target}${request.url ?? "/"}`, { headers, redirect: "manual" });
        const body = Buffer.from(await upstream.arrayBuffer());
        if (headers["payment-signature"] !== undefined && proxy.dropPaidAnswers > 0) {
          proxy.dropPaidAnswers -= 1;
          request.socket.destroy();
          return;
        }
        upstream.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name)) response.setHeader(name, value);
        });
        response.statusCode = upstream.status;
        response.end(body);
      })().catch(() => request.socket.destroy());
    }),
    { dropPaidAnswers },
  );
  return proxy;
}
