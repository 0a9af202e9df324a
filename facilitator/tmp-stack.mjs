import { startStack } from "@svc/anvil-fixtures";
const s = await startStack({ dir: "/tmp/clitry", facilitatorPort: 0 });
console.log("ready");
process.on("SIGTERM", () => s.stop().then(() => process.exit(0)));
