import { Text } from "ink";

import type { AmountFormat } from "../../payment/amountFormat.js";
import type { Policy } from "../../policy/policy.js";
import type { PayerView } from "../hooks/use-payer.js";

/** The top two lines: what this payer is (mode, network, address, balance) and where help is. */
export function Header({ policy, payer, format }: { policy: Pick<Policy, "mode" | "allowedNetwork">; payer: PayerView; format: AmountFormat }) {
  return (
    <>
      <Text bold>
        svc-zerc20 payer · mode {policy.mode} · network {policy.allowedNetwork} · ? help
      </Text>
      <Text>
        {payer.address === undefined
          ? "payer: none (SVC_PAYER_PK unset: quoting and supervising only)"
          : `payer ${payer.address}${payer.balance === undefined ? "" : ` · balance ${format(payer.balance)}`}`}
      </Text>
    </>
  );
}
