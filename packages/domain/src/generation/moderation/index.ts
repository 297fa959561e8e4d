export * from './tokenize.ts';
export * from './matcher.ts';
export * from './ages.ts';
export * from './words.data.ts';
export * from './moderate.ts';
export * from './moderate-request.ts';
