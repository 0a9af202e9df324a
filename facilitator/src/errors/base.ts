/**
 * The facilitator's errors share the scheme library's `BaseError` (explicit `name`, `shortMessage`,
 * `details`/`metaMessages`, `cause` kept but never copied into the message), so one `instanceof` in the HTTP
 * error middleware covers errors from either package.
 */
export { BaseError, type BaseErrorParameters } from "@svc/scheme";
