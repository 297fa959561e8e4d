export * from './generation/lora.ts';
