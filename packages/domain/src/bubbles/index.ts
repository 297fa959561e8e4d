export * from './catalogue.ts';
export * from './path-data.ts';
export { burstPoints, cloudProfile, flashLines, radialPoints, roundedRectPoints, waveProfile } from './shapes.ts';
export type { Ellipse, RadiusProfile } from './shapes.ts';
export { resampleClosed } from './outlines.ts';
export * from './looks.ts';
