/**
 * A response that is already a complete envelope (an idempotent replay): the envelope interceptor
 * sends its body as it is instead of wrapping it again.
 */
export class PreparedResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
