export * from './lora.ts';
