import { InvalidPoseidonPathError, NativePoseidonUnavailableError, PoseidonPathUnavailableError, selectPoseidon } from "@svc/scheme";
import { describe, expect, it } from "vitest";

import { choosePoseidon } from "./choosePoseidon.js";
import { UnsupportedPoseidonPathError } from "./errors.js";

describe("choosePoseidon", () => {
  it("loads the path SVC_POSEIDON_PATH forces, and records what was asked for", () => {
    const forced = choosePoseidon({ SVC_POSEIDON_PATH: "portable" });
    expect(forced.implementation).toMatchObject({ name: "native", path: "portable" });
    expect(forced).toMatchObject({ selection: "auto", requestedPath: "portable" });
    const auto = choosePoseidon({});
    expect(auto.requestedPath).toBe("auto");
    expect(auto.implementation.path).toBe(selectPoseidon("native").implementation.path);
  });

  it("turns the scheme's unavailable path into an error naming the variable, keeping the scheme's as its cause", () => {
    const lacking: typeof selectPoseidon = (_selection, options) => {
      throw new PoseidonPathUnavailableError({ path: options?.path ?? "auto" });
    };
    const error = (() => {
      try {
        choosePoseidon({ SVC_POSEIDON_PATH: "avx2" }, lacking);
      } catch (caught) {
        return caught;
      }
      return expect.unreachable("choosePoseidon returned");
    })();
    expect(error).toBeInstanceOf(UnsupportedPoseidonPathError);
    expect((error as UnsupportedPoseidonPathError).variable).toBe("SVC_POSEIDON_PATH");
    expect((error as UnsupportedPoseidonPathError).cause).toBeInstanceOf(PoseidonPathUnavailableError);
  });

  it("passes the scheme's other refusals through unchanged", () => {
    expect(() => choosePoseidon({ SVC_POSEIDON_PATH: "nope" })).toThrow(InvalidPoseidonPathError);
    const missing: typeof selectPoseidon = () => {
      throw new NativePoseidonUnavailableError();
    };
    expect(() => choosePoseidon({ SVC_POSEIDON: "native" }, missing)).toThrow(NativePoseidonUnavailableError);
  });

  it("chooses poseidon-lite under js, whatever path is asked for", () => {
    const chosen = choosePoseidon({ SVC_POSEIDON: "js", SVC_POSEIDON_PATH: "avx512-ifma" });
    expect(chosen.implementation.name).toBe("poseidon-lite");
    expect(chosen.implementation.path).toBeUndefined();
  });
});
