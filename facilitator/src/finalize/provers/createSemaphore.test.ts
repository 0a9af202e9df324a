import { describe, expect, it } from "vitest";
import { createSemaphore } from "./createSemaphore.js";

describe("createSemaphore", () => {
  it("grants up to its permits at once and queues the rest in arrival order", async () => {
    const slots = createSemaphore(2);
    const first = await slots.acquire();
    const second = await slots.acquire();
    const granted: string[] = [];
    const grantedTo = (name: string) => (release: (() => void) | undefined) => {
      granted.push(name);
      return release;
    };
    const third = slots.acquire().then(grantedTo("third"));
    const fourth = slots.acquire().then(grantedTo("fourth"));
    expect([slots.active(), slots.waiting()]).toEqual([2, 2]);

    first?.();
    const thirdRelease = await third;
    expect(granted).toEqual(["third"]);
    expect([slots.active(), slots.waiting()]).toEqual([2, 1]);

    second?.();
    await fourth;
    expect(granted).toEqual(["third", "fourth"]);
    thirdRelease?.();
    expect([slots.active(), slots.waiting()]).toEqual([1, 0]);
  });

  it("counts a release called twice once", async () => {
    const slots = createSemaphore(1);
    const release = await slots.acquire();
    const waiting = slots.acquire();
    release?.();
    release?.();
    await waiting;
    expect(slots.active()).toBe(1);
  });

  it("answers waiting and later callers with undefined once closed, and lets held slots finish", async () => {
    const slots = createSemaphore(1);
    const held = await slots.acquire();
    const waiting = slots.acquire();
    slots.close();
    await expect(waiting).resolves.toBeUndefined();
    await expect(slots.acquire()).resolves.toBeUndefined();
    expect(slots.active()).toBe(1);
    held?.();
    expect([slots.active(), slots.waiting()]).toEqual([0, 0]);
  });
});
