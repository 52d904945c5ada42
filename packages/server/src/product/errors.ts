import { PRODUCT_ERROR_STATUS, type ProductErrorBody, type ProductErrorStatus } from '@caseroom/protocol';

/**
 * The product's own error: a status name (mapped to one HTTP status), a message for developers and logs,
 * and an optional toast for the user (product-spec §8: message 'Account not found', toast 'No account
 * found for {email}').
 */
export class ProductError extends Error {
  constructor(
    readonly status: ProductErrorStatus,
    message: string,
    readonly toast?: string,
  ) {
    super(message);
    this.name = 'ProductError';
  }

  get httpStatus(): number {
    return PRODUCT_ERROR_STATUS[this.status];
  }

  toBody(): ProductErrorBody {
    return {
      error: { status: this.status, message: this.message, ...(this.toast ? { toast: this.toast } : {}) },
    };
  }
}

/** Best status name for an HTTP status that did not come from a {@link ProductError}. */
export function statusForHttp(code: number): ProductErrorStatus {
  for (const [name, http] of Object.entries(PRODUCT_ERROR_STATUS)) {
    if (http === code) return name as ProductErrorStatus;
  }
  return code >= 500 ? 'internal' : 'invalid-argument';
}

export const unauthenticated = () => new ProductError('unauthenticated', 'Not signed in');
export const notFound = (what: string) => new ProductError('not-found', `${what} not found`);
export const permissionDenied = (message = 'Permission denied') =>
  new ProductError('permission-denied', message);
