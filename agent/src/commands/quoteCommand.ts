import { Command, Option } from "./clipanion.js";

/** `quote <url>`: shows the offer for a resource and what the policy would say, without paying. */
export class QuoteCommand extends Command {
  static override paths = [["quote"]];

  static override usage = Command.Usage({
    description: "show the offer for a resource without paying",
    details: `
      Requests the URL unpaid and shows the svc-zerc20 offer of its 402: amount (token units and base units), fee, token, network, one-time burn address, expiry and payment paths, plus the policy's verdict and the spend so far against \`SVC_MAX_TOTAL\`. Needs no \`SVC_PAYER_PK\`; signs nothing.

      Exit codes: 0 the offer would be paid (or nothing to pay), 1 the request failed, 2 usage or configuration mistake, 3 the policy would decline it, 6 the resource answered a non-2xx status other than 402.
    `,
    examples: [["Quote the demo weather report", "$0 quote http://127.0.0.1:4021/weather"]],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object instead of text" });

  url = Option.String({ name: "url" });

  override async execute(): Promise<number> {
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runQuote } = await import("./quote.js");
    return runQuote(this);
  }
}
