import { describe, expect, it } from "vitest";
import { SampleGate } from "../../../../api/checks/engine/budget/sample-gate.ts";

describe("the sample gate", () => {
  it("holds samples while a check still has an essential request out, then wakes them a check at a time", async () => {
    const gate = new SampleGate(new AbortController().signal);
    const links = {};
    const schemas = {};
    gate.enter(links);
    gate.enter(schemas);
    const order: string[] = [];
    const waits = [...["link 1", "link 2", "link 3"].map((name) => gate.wait(links).then(() => order.push(name)))];
    gate.busy(schemas, 1);
    waits.push(gate.wait(schemas).then(() => order.push("schema 1")));
    await Promise.resolve();
    expect(order).toEqual([]);
    // The schemas check's essential request is answered: every running check now waits on samples only.
    gate.busy(schemas, -1);
    await Promise.all(waits);
    expect(order).toEqual(["link 1", "schema 1", "link 2", "link 3"]);
  });

  it("lets samples go when the scan's deadline passes, whatever is still running", async () => {
    const deadline = new AbortController();
    const gate = new SampleGate(deadline.signal);
    const busy = {};
    const sampling = {};
    gate.enter(busy);
    gate.enter(sampling);
    gate.busy(busy, 1);
    const waiting = gate.wait(sampling);
    deadline.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
