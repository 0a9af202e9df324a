/**
 * Test builder: withdraw proof inputs that are a true single-teleport statement, for the tests that run a real
 * circuit. A burn address is derived (with its proof of work) for a general recipient, one transfer into it
 * sits at leaf 5 of a tree of eight, and `siblings` is its real height-40 path; `wrongWitnesses` then breaks
 * it in each way only a real circuit can refuse.
 */
import { addressToRecipient, deriveBurnAddress, generalRecipientHash, merkleNode, type ProtocolVersion, zeroHashes, zerc20Protocol } from "@svc/scheme";
import { type Address, getAddress, hexToBigInt, keccak256, toHex, zeroAddress } from "viem";
import type { WithdrawProofInputs } from "../../proverPort.js";

/** Height of the transfer tree the circuit proves a path in. */
const HEIGHT = 40;

const fieldOf = (label: string) => hexToBigInt(keccak256(toHex(label))) >> 8n;

/** The root of `leaves` (positions 0 .. n-1, the rest empty) and the path of the leaf at `index`. */
export function treeWith(leaves: readonly bigint[], index: number): { root: bigint; siblings: bigint[] } {
  const zeros = zeroHashes();
  let level = [...leaves];
  let position = index;
  const siblings: bigint[] = [];
  for (let height = 0; height < HEIGHT; height++) {
    const zero = zeros[height] ?? 0n;
    siblings.push(level[position ^ 1] ?? zero);
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(merkleNode(level[i] ?? zero, level[i + 1] ?? zero));
    level = next;
    position >>= 1;
  }
  return { root: level[0] ?? 0n, siblings };
}

/** A true statement: `value` from `from` into the burn address of the treasury's recipient, at leaf 5 of 8. */
export function buildTrueWithdrawProofInputs({
  protocol = "zerc20-v2",
  value = 1000n,
  label = "true statement",
  from = getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"),
}: {
  protocol?: ProtocolVersion;
  value?: bigint;
  label?: string;
  from?: Address;
} = {}): WithdrawProofInputs {
  const version = zerc20Protocol(protocol);
  const recipient = {
    chainId: 31337n,
    recipient: addressToRecipient(getAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")),
    tweak: keccak256(toHex(label)),
  };
  const recipientHash = generalRecipientHash(recipient);
  const { burnAddress, secret } = deriveBurnAddress(version, hexToBigInt(recipientHash), fieldOf(`secret base ${label}`));
  const leaf = version.transferLeaf({ from, to: burnAddress, value });
  const leaves = Array.from({ length: 8 }, (_, i) => (i === 5 ? leaf : fieldOf(`other leaf ${i}`)));
  const { root, siblings } = treeWith(leaves, 5);
  return { protocol, root, rootIndex: 8n, recipient, recipientHash, burnAddress, secret, transfers: [{ leafIndex: 5n, from, value, siblings }], value };
}

/** The true statement broken each way a circuit refuses: what, and the inputs. The sender only counts under v2. */
export function wrongWitnesses(inputs: WithdrawProofInputs): [string, WithdrawProofInputs][] {
  const [transfer] = inputs.transfers;
  if (transfer === undefined) return [];
  const [first, second, ...rest] = transfer.siblings;
  const withTransfer = (change: Partial<typeof transfer>): WithdrawProofInputs => ({ ...inputs, transfers: [{ ...transfer, ...change }] });
  const wrong: [string, WithdrawProofInputs][] = [
    ["siblings out of order", withTransfer({ siblings: [second ?? 0n, first ?? 0n, ...rest] })],
    ["a leaf index off by one", withTransfer({ leafIndex: transfer.leafIndex - 1n })],
    ["a secret that fails the proof of work", { ...inputs, secret: inputs.secret + 1n }],
  ];
  if (inputs.protocol === "zerc20-v2") wrong.push(["a leaf without its sender", withTransfer({ from: zeroAddress })]);
  return wrong;
}
