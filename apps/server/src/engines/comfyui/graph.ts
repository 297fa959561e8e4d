/** ComfyUI API-format graph: node id → {class_type, inputs}; a link is [source node id, output slot]. */
export type ComfyLink = [string, number];
export type ComfyInput = string | number | boolean | ComfyLink;
export interface ComfyNode {
  class_type: string;
  inputs: Record<string, ComfyInput>;
  _meta?: { title: string };
}
export type ComfyGraph = Record<string, ComfyNode>;

/** Builds a graph with sequential string ids, so the same task always yields the same JSON. */
export class GraphBuilder {
  private readonly nodes: ComfyGraph = {};
  private next = 1;

  /** Adds a node and returns its id; use `out(id, slot)` to link to its outputs. */
  add(classType: string, inputs: Record<string, ComfyInput>, title?: string): string {
    const id = String(this.next++);
    this.nodes[id] = title ? { class_type: classType, inputs, _meta: { title } } : { class_type: classType, inputs };
    return id;
  }

  build(): ComfyGraph {
    return structuredClone(this.nodes);
  }
}

export const out = (id: string, slot = 0): ComfyLink => [id, slot];
