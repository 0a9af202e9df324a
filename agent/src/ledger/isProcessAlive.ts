/**
 * True when a process with `pid` exists on this machine. Signal 0 only checks; EPERM means it exists under
 * another user. Tells a live lock owner or a waiting agent from one that has gone.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && Reflect.get(error, "code") === "EPERM";
  }
}
