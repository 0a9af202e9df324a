/** `@svc/scheme/cli-help`: what both CLIs share to answer help quickly and readably, with no heavy import. */
export { helpPageOr, readHelpPage, writeHelpPages } from "./helpPages.js";
export { readableUsage, readableUsageStream, type UsageDefinitions } from "./readableUsage.js";
