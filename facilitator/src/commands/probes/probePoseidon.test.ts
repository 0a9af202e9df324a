/**
 * The `poseidon` probe on this processor's real addon: the implementation and path it names for each
 * selection, and the failing line (naming the variable, never the value) for every choice `start` refuses.
 */
import { NativePoseidonPathSchema, PoseidonPathUnavailableError, selectPoseidon } from "@svc/scheme";
import { describe, expect, it } from "vitest";

import { probePoseidon } from "./probePoseidon.js";

const fastest = selectPoseidon("native").implementation.path;

describe("probePoseidon", () => {
  it("names the native addon and the fastest path this processor has when nothing is forced", () => {
    expect(NativePoseidonPathSchema.options).toContain(fastest);
    expect(probePoseidon({})).toEqual([
      { probe: "poseidon", status: "ok", message: `burn addresses derive with native, path ${fastest} (SVC_POSEIDON=auto, SVC_POSEIDON_PATH=auto)` },
    ]);
  });

  it("names each forced path the processor has, and refuses each it lacks by the variable's name", () => {
    for (const path of NativePoseidonPathSchema.options) {
      const supported = (() => {
        try {
          return selectPoseidon("native", { path }).implementation.path === path;
        } catch {
          return false;
        }
      })();
      const [finding] = probePoseidon({ SVC_POSEIDON: "native", SVC_POSEIDON_PATH: path });
      expect(finding, path).toEqual(
        supported
          ? { probe: "poseidon", status: "ok", message: `burn addresses derive with native, path ${path} (SVC_POSEIDON=native, SVC_POSEIDON_PATH=${path})` }
          : {
              probe: "poseidon",
              status: "fail",
              message: "SVC_POSEIDON_PATH forces a Poseidon search path this processor does not support; unset it or set it to auto.",
            },
      );
    }
  });

  it("fails a forced path the processor lacks with start's message, without the path's name", () => {
    // This processor may have every path: the scheme's own error stands in for one it lacks.
    const lacking: typeof selectPoseidon = (_selection, options) => {
      throw new PoseidonPathUnavailableError({ path: options?.path ?? "auto" });
    };
    const findings = probePoseidon({ SVC_POSEIDON_PATH: "avx512-ifma" }, lacking);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.status).toBe("fail");
    expect(findings[0]?.message).toMatchInlineSnapshot(
      `"SVC_POSEIDON_PATH forces a Poseidon search path this processor does not support; unset it or set it to auto."`,
    );
    expect(findings[0]?.message).not.toContain("avx512-ifma");
  });

  it("says the search path does not apply to poseidon-lite", () => {
    expect(probePoseidon({ SVC_POSEIDON: "js", SVC_POSEIDON_PATH: "avx2" })).toEqual([
      {
        probe: "poseidon",
        status: "ok",
        message: "burn addresses derive with poseidon-lite; the search path applies only to the native addon (SVC_POSEIDON=js, SVC_POSEIDON_PATH=avx2)",
      },
    ]);
  });

  it.each([
    [{ SVC_POSEIDON_PATH: "secret-looking-value-4711" }, "SVC_POSEIDON_PATH must be one of auto, avx512-ifma, avx2, mulx-adx, portable."],
    [{ SVC_POSEIDON: "js", SVC_POSEIDON_PATH: "secret-looking-value-4711" }, "SVC_POSEIDON_PATH must be one of auto, avx512-ifma, avx2, mulx-adx, portable."],
    [{ SVC_POSEIDON: "secret-looking-value-4711" }, "SVC_POSEIDON must be one of auto, native, js."],
  ])("fails %o with one line naming the variable, never the value", (env, message) => {
    const findings = probePoseidon(env);
    expect(findings).toEqual([{ probe: "poseidon", status: "fail", message }]);
    expect(JSON.stringify(findings)).not.toContain("secret-looking-value-4711");
  });
});
