/** The machine a run happened on, for the results file: CPUs, CPU model, memory, Node, OS, date. */
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, release, totalmem, type } from "node:os";

/** One line per fact. */
export type MachineDescription = {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average when the run started (other work on the machine skews every figure). */
  loadAtStart: number;
};

/** Describes this machine (CPU model from `/proc/cpuinfo` when readable). */
export function describeMachine(): MachineDescription {
  let cpuModel = "unknown";
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? cpuModel;
  } catch {
    // Not Linux, or /proc hidden: the model stays unknown.
  }
  return {
    date: new Date().toISOString(),
    cpus: availableParallelism(),
    cpuModel,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${type()} ${release()}`,
    loadAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
