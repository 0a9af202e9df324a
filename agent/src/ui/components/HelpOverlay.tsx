import { Box, Text } from "ink";

/** Every key and what it does; any key closes the overlay. */
const KEYS: [string, string][] = [
  ["p, Enter", "pay the offer (while allowed and still usable)"],
  ["y / n", "approve / deny in the approval prompt"],
  ["q", "quit (asks first while a prompt is undecided)"],
  ["Ctrl-C", "quit now, withdrawing an undecided approval (exit 130)"],
  ["r", "fresh offer (not after an unknown outcome)"],
  ["s", "re-send an unknown outcome's payment (never pays twice)"],
  ["↑ ↓, j k", "select an agent's approval; scroll an open history"],
  ["a", "approve the selected agent's payment (asks first)"],
  ["d", "deny the selected agent's payment"],
  ["h, Esc", "open / close the payment history"],
  ["?", "this help"],
];

/** The `?` overlay: the keys and the exit codes. */
export function HelpOverlay() {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Keys (any key closes this help)</Text>
      {KEYS.map(([keys, meaning]) => (
        <Text key={keys}>
          {keys.padEnd(10)} {meaning}
        </Text>
      ))}
      <Text>exit: 0 paid/nothing paid · 1 failed · 3 declined · 4 not approved</Text>
      <Text>      5 unknown · 6 HTTP error · 130 interrupted (as for pay)</Text>
    </Box>
  );
}
