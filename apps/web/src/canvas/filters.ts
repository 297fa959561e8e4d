import { DEFAULT_FILTER_PARAMS, type FilterParams } from '@koma/domain';

// Image adjustments (spec §3 filterParams) as one WebGL fragment shader drawn into a cached bitmap. When WebGL is
// missing or the shader fails to compile or link, callers draw the unfiltered image (spec §8). Exports apply the same
// formulas on the CPU (adjustImage in packages/editor/src/export/adjust.ts): change both together.
const FRAGMENT = `
precision mediump float;
varying vec2 v_uv;
uniform sampler2D u_image;
uniform float u_exposure, u_contrast, u_highlights, u_shadows, u_whites, u_blacks, u_vignette, u_grain, u_saturation;
float luma(vec3 c) { return dot(c, vec3(0.2126, 0.7152, 0.0722)); }
float hash(vec2 p) { return fract(sin(dot(p, vec2(12.9898, 78.233))) * 43758.5453); }
void main() {
  vec4 texel = texture2D(u_image, v_uv);
  vec3 c = texel.rgb * pow(2.0, u_exposure);
  c = (c - 0.5) * u_contrast + 0.5;
  float l = luma(c);
  c += u_highlights * smoothstep(0.5, 1.0, l) * 0.5;
  c += u_shadows * (1.0 - smoothstep(0.0, 0.5, l)) * 0.5;
  // Levels: blacks and whites move the ends of the tonal range (1 = unchanged).
  float black = (1.0 - u_blacks) * 0.5;
  float white = 1.0 - (1.0 - u_whites) * 0.5;
  c = (c - black) / max(white - black, 0.001);
  c = mix(vec3(luma(c)), c, u_saturation);
  float d = distance(v_uv, vec2(0.5));
  c *= 1.0 - u_vignette * smoothstep(0.3, 0.75, d);
  c += (hash(v_uv * 1024.0) - 0.5) * u_grain * 0.2;
  gl_FragColor = vec4(clamp(c, 0.0, 1.0), texel.a);
}`;
const VERTEX = `
attribute vec2 a_position;
varying vec2 v_uv;
void main() { v_uv = vec2((a_position.x + 1.0) / 2.0, 1.0 - (a_position.y + 1.0) / 2.0); gl_Position = vec4(a_position, 0.0, 1.0); }`;

const UNIFORMS = [
  'exposure',
  'contrast',
  'highlights',
  'shadows',
  'whites',
  'blacks',
  'vignette',
  'grain',
  'saturation',
] as const;

interface Program {
  gl: WebGLRenderingContext;
  canvas: HTMLCanvasElement;
  locations: Record<(typeof UNIFORMS)[number], WebGLUniformLocation | null>;
}

let program: Program | null | undefined;

function compile(gl: WebGLRenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type);
  if (!shader) throw new Error('createShader failed');
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS))
    throw new Error(gl.getShaderInfoLog(shader) ?? 'compile failed');
  return shader;
}

function setup(): Program | null {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl', { premultipliedAlpha: false, preserveDrawingBuffer: true });
    if (!gl) return null;
    const p = gl.createProgram();
    if (!p) return null;
    gl.attachShader(p, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(p, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p) ?? 'link failed');
    gl.useProgram(p);
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1]), gl.STATIC_DRAW);
    const position = gl.getAttribLocation(p, 'a_position');
    gl.enableVertexAttribArray(position);
    gl.vertexAttribPointer(position, 2, gl.FLOAT, false, 0, 0);
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    for (const [k, v] of [
      [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
      [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
      [gl.TEXTURE_MIN_FILTER, gl.LINEAR],
      [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
    ] as const)
      gl.texParameteri(gl.TEXTURE_2D, k, v);
    const locations = Object.fromEntries(
      UNIFORMS.map((u) => [u, gl.getUniformLocation(p, `u_${u}`)]),
    ) as Program['locations'];
    return { gl, canvas, locations };
  } catch (error) {
    console.error('Image filter shader failed; images are drawn unfiltered', error);
    return null;
  }
}

export function isDefaultFilter(params: FilterParams): boolean {
  return UNIFORMS.every((u) => params[u] === DEFAULT_FILTER_PARAMS[u]);
}

/** The image with its adjustments applied, as a new bitmap; null when WebGL cannot do it (draw the original). */
export function applyFilters(
  source: CanvasImageSource & { width: number; height: number },
  params: FilterParams,
): HTMLCanvasElement | null {
  if (program === undefined) program = setup();
  if (!program) return null;
  const { gl, canvas, locations } = program;
  try {
    canvas.width = source.width;
    canvas.height = source.height;
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source as TexImageSource);
    for (const u of UNIFORMS) gl.uniform1f(locations[u], params[u]);
    gl.drawArrays(gl.TRIANGLES, 0, 6);
    const out = document.createElement('canvas');
    out.width = canvas.width;
    out.height = canvas.height;
    out.getContext('2d')?.drawImage(canvas, 0, 0);
    return out;
  } catch (error) {
    console.error('Image filter failed; drawing the image unfiltered', error);
    return null;
  }
}

const cache = new Map<string, HTMLCanvasElement | null>();

/** Filtered bitmaps by image, size and parameters; a small cache so redraws while panning cost nothing. */
export function filteredImage(
  key: string,
  source: CanvasImageSource & { width: number; height: number },
  params: FilterParams,
): CanvasImageSource {
  const id = `${key}|${source.width}x${source.height}|${UNIFORMS.map((u) => params[u]).join(',')}`;
  let result = cache.get(id);
  if (result === undefined) {
    result = applyFilters(source, params);
    cache.set(id, result);
    if (cache.size > 64) cache.delete(cache.keys().next().value!);
  }
  return result ?? source;
}
