export * from './constants.js';
export * from './errors.js';
export * from './product.js';
export * from './chat/models.js';
export * from './chat/requests.js';
export * from './chat/responses.js';
export * from './chat/events.js';
export * from './chat/capabilities.js';
