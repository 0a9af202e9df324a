/** The installed command name (`bin` in package.json), used in help and in hints printed to users. */
export const BINARY_NAME = "svc-agent";
