export { HttpOut, HttpOutError } from './client.js';
export type { FetchOptions, FetchResult, HttpOutFailure, HttpOutOptions, Resolver } from './client.js';
export { refusedAddressReason } from './address.js';
