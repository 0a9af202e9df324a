/**
 * CPU time and memory of other processes from Linux `/proc`, with nanosecond CPU resolution from
 * `schedstat` (the first field: time spent on a CPU). A process's CPU is the sum over its threads, so worker
 * threads and GC helpers count; one thread can also be read on its own (the burn-address worker).
 */
import { readdirSync, readFileSync } from "node:fs";

/** CPU nanoseconds per thread id of one process. */
export type ThreadCpu = Map<number, number>;

/** CPU nanoseconds of every thread of `pid`; threads that exit between listing and reading are skipped. */
export function readThreadCpu(pid: number): ThreadCpu {
  const threads: ThreadCpu = new Map();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const [onCpu] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
      threads.set(Number(tid), Number(onCpu));
    } catch {
      // The thread ended after the listing.
    }
  }
  return threads;
}

/** Total CPU milliseconds of `pid` (all threads). */
export function readProcessCpuMs(pid: number): number {
  let total = 0;
  for (const ns of readThreadCpu(pid).values()) total += ns;
  return total / 1e6;
}

/** CPU milliseconds of one thread `tid` of `pid` (0 when it is gone). */
export function readThreadCpuMs(pid: number, tid: number): number {
  try {
    const [onCpu] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
    return Number(onCpu) / 1e6;
  } catch {
    return 0;
  }
}

/**
 * Scheduler state of thread `tid` of `pid` (`R` running or runnable, `S` sleeping, `D` waiting on I/O, ...);
 * undefined when the thread is gone. A runnable thread starved of a CPU uses no CPU time but is still `R`.
 */
export function readThreadState(pid: number, tid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/** The nice value of thread `tid` of `pid` (per thread on Linux); undefined when the thread is gone. */
export function readThreadNice(pid: number, tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // After "pid (comm) ", field 19 of stat(5) (nice) is the 17th.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  } catch {
    return undefined;
  }
}

/** Whether any thread of `pid` is running or waiting for a CPU right now. */
export function anyThreadRunnable(pid: number): boolean {
  for (const tid of readThreadCpu(pid).keys()) if (readThreadState(pid, tid) === "R") return true;
  return false;
}

/** Resident set size of `pid` in bytes (`VmRSS`). */
export function readRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1024;
}

/** Direct children of `parentPid` whose command name (`/proc/<pid>/comm`) is `comm`. */
export function findChildPids(parentPid: number, comm: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the parenthesised command: state, ppid, ...
      const afterComm = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (Number(afterComm[1]) === parentPid && name === comm) found.push(Number(entry));
    } catch {
      // The process ended while listing.
    }
  }
  return found;
}

/** The thread of `pid` that used the most CPU since `before` (a snapshot from {@link readThreadCpu}). */
export function busiestThreadSince(pid: number, before: ThreadCpu): number | undefined {
  let best: { tid: number; delta: number } | undefined;
  for (const [tid, ns] of readThreadCpu(pid)) {
    const delta = ns - (before.get(tid) ?? 0);
    if (best === undefined || delta > best.delta) best = { tid, delta };
  }
  return best?.tid;
}

/** Named processes whose CPU is read together. */
export type CpuTargets = Record<string, number>;

/** CPU milliseconds per named process at one instant. */
export type CpuSnapshot = Record<string, number>;

/** Reads every target's CPU milliseconds now. */
export function snapshotCpu(targets: CpuTargets): CpuSnapshot {
  const snapshot: CpuSnapshot = {};
  for (const [name, pid] of Object.entries(targets)) snapshot[name] = readProcessCpuMs(pid);
  return snapshot;
}

/** Per-process CPU milliseconds spent between two snapshots. */
export function cpuDelta(before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  const delta: CpuSnapshot = {};
  for (const [name, value] of Object.entries(after)) delta[name] = value - (before[name] ?? 0);
  return delta;
}

/** The whole machine's CPU time since boot, summed over every CPU, ms (`/proc/stat`, in ticks of 10 ms). */
export type MachineCpu = {
  /** User, nice, system, interrupt and softirq time: work done here by any process. */
  busyMs: number;
  idleMs: number;
  /** Time a virtual CPU was ready but the hypervisor ran something else. */
  stealMs: number;
};

/** Reads the machine's CPU time; subtract two readings for a window. */
export function readMachineCpu(): MachineCpu {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  // USER_HZ is 100 on every Linux the bench runs on.
  const ms = (ticks: number) => ticks * 10;
  return { busyMs: ms(user + nice + system + irq + softirq), idleMs: ms(idle + iowait), stealMs: ms(steal) };
}
