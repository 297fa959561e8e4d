/**
 * Writes a tiny ONNX model by hand (protobuf wire format): input `images` float[1,3,640,640], output `output0`
 * float[1,5,8400] equal to a constant head, via Identity. It lets the YOLO path run for real on onnxruntime
 * (session, feeds, letterbox, decode) with a known answer, since no face model ships in npm.
 */
function varint(n: number): number[] {
  const out: number[] = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const key = (field: number, wire: number) => varint((field << 3) | wire);
const num = (field: number, value: number) => Buffer.from([...key(field, 0), ...varint(value)]);
const bytes = (field: number, value: Uint8Array) =>
  Buffer.concat([Buffer.from([...key(field, 2), ...varint(value.length)]), value]);
const str = (field: number, value: string) => bytes(field, Buffer.from(value, 'utf8'));
const msg = (field: number, ...parts: Buffer[]) => bytes(field, Buffer.concat(parts));

const FLOAT = 1;

function valueInfo(field: number, name: string, dims: number[]): Buffer {
  const shape = Buffer.concat(dims.map((d) => msg(1, num(1, d))));
  return msg(field, str(1, name), msg(2, msg(1, num(1, FLOAT), msg(2, shape))));
}

export function constantYoloModel(head: Float32Array, dims: [number, number, number] = [1, 5, 8400]): Buffer {
  const tensor = msg(
    5,
    ...dims.map((d) => num(1, d)),
    num(2, FLOAT),
    str(8, 'head'),
    bytes(9, new Uint8Array(head.buffer, head.byteOffset, head.byteLength)),
  );
  const node = msg(1, str(1, 'head'), str(2, 'output0'), str(3, 'identity'), str(4, 'Identity'));
  const graph = msg(
    7,
    node,
    str(2, 'constant-yolo-head'),
    tensor,
    valueInfo(11, 'images', [1, 3, 640, 640]),
    valueInfo(12, 'output0', dims),
  );
  return Buffer.concat([num(1, 8), str(2, 'koma-test'), graph, msg(8, str(1, ''), num(2, 13))]);
}
