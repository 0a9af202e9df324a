import { createContext, useContext } from "react";

/** Whether the TUI may colour its output; off with `NO_COLOR` (https://no-color.org). */
export const ColorsContext = createContext(true);

/** A colour name as Ink takes it, or `undefined` when colours are off, so components stay readable without them. */
export function useColor(): (color: string) => string | undefined {
  const enabled = useContext(ColorsContext);
  return (color) => (enabled ? color : undefined);
}
