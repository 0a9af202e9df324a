/**
 * The request both facilitator clients make, over a stand-in `fetch`: what a 2xx answer, a refusal, a dead
 * facilitator and one that stalls mid-body come to.
 */
import { describe, expect, it } from "vitest";

import { requestFacilitatorJson } from "./requestFacilitatorJson.js";

const url = "http://facilitator.test/challenge";

function answering(respond: (init: RequestInit | undefined) => Response | Promise<Response>): typeof fetch {
  return async (_input, init) => respond(init);
}

describe("requestFacilitatorJson", () => {
  it("returns a 2xx answer's JSON, and undefined for a 2xx body that is not JSON", async () => {
    const json = await requestFacilitatorJson({ fetch: answering(() => new Response('{"a":1}')), url, init: { method: "GET" }, timeoutMs: 1_000 });
    expect(json).toEqual({ ok: true, json: { a: 1 } });
    const text = await requestFacilitatorJson({ fetch: answering(() => new Response("ok")), url, init: { method: "GET" }, timeoutMs: 1_000 });
    expect(text).toEqual({ ok: true, json: undefined });
  });

  it("turns a non-2xx answer into a refusal with the facilitator's own non-empty { error } text", async () => {
    const refuse = (body: string) => answering(() => new Response(body, { status: 429 }));
    const withText = await requestFacilitatorJson({ fetch: refuse('{"error":"slow down"}'), url, init: {}, timeoutMs: 1_000 });
    expect(withText).toEqual({ ok: false, failure: { kind: "refused", status: 429, facilitatorError: "slow down" } });
    const empty = await requestFacilitatorJson({ fetch: refuse('{"error":""}'), url, init: {}, timeoutMs: 1_000 });
    expect(empty).toEqual({ ok: false, failure: { kind: "refused", status: 429, facilitatorError: undefined } });
  });

  it("reports an unreachable facilitator with the thrown error as the cause", async () => {
    const thrown = new TypeError("fetch failed");
    const answer = await requestFacilitatorJson({
      fetch: answering(() => {
        throw thrown;
      }),
      url,
      init: {},
      timeoutMs: 1_000,
    });
    expect(answer).toEqual({ ok: false, failure: { kind: "unreachable" }, cause: thrown });
  });

  it("times out a facilitator that sends its headers and then stalls in the body", async () => {
    const stalling = answering((init) => {
      const body = new ReadableStream({
        start(controller) {
          init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
        },
      });
      return new Response(body, { status: 200 });
    });
    const answer = await requestFacilitatorJson({ fetch: stalling, url, init: {}, timeoutMs: 20 });
    expect(answer).toMatchObject({ ok: false, failure: { kind: "timeout", timeoutMs: 20 } });
  });
});
