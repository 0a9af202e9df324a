import { describe, expect, it } from "vitest";

import { BaseError } from "./base.js";

class ExampleError extends BaseError {
  override name = "ExampleError";
}

describe("BaseError", () => {
  it("builds the message from the short message, meta lines and details only", () => {
    const error = new ExampleError("Something failed.", {
      metaMessages: ["first line", "second line"],
      details: "why it matters",
      cause: new Error("0xsecret-looking cause text"),
    });
    expect(error.message).toBe("Something failed.\n\nfirst line\nsecond line\n\nDetails: why it matters");
    expect(error.shortMessage).toBe("Something failed.");
    expect(error.name).toBe("ExampleError");
    expect(error.message).not.toContain("cause text");
  });

  it("keeps the cause and walks to the deepest one", () => {
    const root = new Error("root");
    const middle = new ExampleError("middle", { cause: root });
    const top = new ExampleError("top", { cause: middle });
    expect(top.cause).toBe(middle);
    expect(top.walk()).toBe(root);
    expect(top.walk((error) => error === middle)).toBe(middle);
    expect(top.walk(() => false)).toBeNull();
  });

  it("has an empty message tail without details or meta lines", () => {
    const error = new ExampleError("Only this.");
    expect(error.message).toBe("Only this.");
    expect(error.details).toBe("");
    expect(error.cause).toBeUndefined();
  });
});
