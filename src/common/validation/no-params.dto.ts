/** For routes that take no query parameters or no body: with the global whitelist, anything sent is a 400. */
export class NoParamsDto {}
