/**
 * `@svc/provider-demo`: a demo resource server charging in zERC20 through the official x402 middleware and
 * the svc-zerc20 plugin. The program is `dist/server.js`; these exports let tests and other code build the
 * same app in-process.
 */
export { checkFacilitatorSupport, type CheckFacilitatorSupportParameters } from "./checkFacilitatorSupport.js";
export { createProviderApp, type ProviderAppOptions } from "./createProviderApp.js";
export { FacilitatorUnavailableError, InvalidProviderConfigError, SchemeNotSupportedError } from "./errors.js";
export { loadProviderConfig, PROVIDER_DEFAULTS, type ProviderConfig } from "./loadProviderConfig.js";
export { logRequests, type RequestLogLine } from "./logRequests.js";
export { demoWeatherSource, type Forecast, type WeatherReport, type WeatherSource } from "./weatherSource.js";
