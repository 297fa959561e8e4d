export * from './fields.ts';
export * from './image-requests.ts';
export * from './composite-requests.ts';
export * from './other-requests.ts';
export * from './field-errors.ts';
export * from './normalize.ts';
