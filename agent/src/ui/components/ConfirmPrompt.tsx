import { Box, Text } from "ink";

import type { AmountFormat } from "../../payment/amountFormat.js";
import { useColor } from "../hooks/use-colors.js";
import type { Confirmation } from "../hooks/use-tui.js";

/** The question asked before quitting with an undecided prompt, or before approving another process's payment. */
export function ConfirmPrompt({ confirm, format }: { confirm: Confirmation; format: (asset: string) => AmountFormat }) {
  const color = useColor();
  const question =
    confirm.kind === "quit"
      ? "Quit without deciding? The approval is withdrawn and nothing is paid (exit 130)."
      : `Approve payment ${confirm.request.id} of process ${confirm.request.pid}: ${format(confirm.request.asset)(confirm.request.amount)} to ${new URL(confirm.request.url).host}?`;
  return (
    <Box flexDirection="column" borderStyle="double" borderColor={color("magenta")} paddingX={1}>
      <Text bold>{question}</Text>
      <Text>[y] yes · [n] no, back</Text>
    </Box>
  );
}
