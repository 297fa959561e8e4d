export * from './catalogue.ts';
export * from './path-data.ts';
export {
  burstPoints,
  cloudProfile,
  radialPoints,
  roundedRectPoints,
  waveProfile,
  hash01 as bubbleHash01,
} from './shapes.ts';
export type { Ellipse, RadiusProfile } from './shapes.ts';
export { resampleClosed } from './outlines.ts';
