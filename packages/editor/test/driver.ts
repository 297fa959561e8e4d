import type { ViewTransform } from '@koma/domain';
import {
  InteractionController,
  UiStore,
  handleKeyDown,
  handleKeyUp,
  initialUiState,
  type Editor,
  type InteractionHost,
  type KeyInput,
  type ShortcutActions,
  type ToolId,
} from '../src/index.ts';
import { makeEditor } from './support.ts';

/** Drives the headless editor the way a person does: pointer and key events, in screen pixels. */
export class TestDriver {
  readonly editor: Editor;
  readonly ui = new UiStore(initialUiState());
  view: ViewTransform = { x: 0, y: 0, zoom: 1 };
  readonly controller: InteractionController;
  readonly host: InteractionHost;
  readonly calls: string[] = [];
  readonly actions: ShortcutActions = {
    generateAtPointer: () => this.calls.push('generateAtPointer'),
    generateFromPoseOrSketch: () => this.calls.push('generateFromPoseOrSketch'),
    estimatePose: () => this.calls.push('estimatePose'),
    recenter: () => this.calls.push('recenter'),
    zoomStep: (d) => this.calls.push(`zoomStep ${d}`),
    cycleVariation: (d) => this.calls.push(`cycleVariation ${d}`),
    refused: (reason, types) => this.calls.push(['refused', reason, ...(types ?? [])].join(' ')),
  };

  constructor(type: 'COMIC' | 'INFINITE' = 'COMIC') {
    this.editor = makeEditor(type);
    this.host = {
      editor: this.editor,
      ui: this.ui,
      view: () => this.view,
      setView: (v) => (this.view = v),
      activeRoot: () => this.editor.doc.pages[this.ui.state.activePage]?.rootId ?? this.editor.doc.rootId,
    };
    this.controller = new InteractionController(this.host);
  }

  get root(): string {
    return this.host.activeRoot();
  }

  tool(tool: ToolId): this {
    this.ui.update({ tool });
    return this;
  }

  down(x: number, y: number, opts: { button?: number; shift?: boolean; pressure?: number } = {}): this {
    this.controller.pointerDown({
      screen: { x, y },
      button: opts.button ?? 0,
      shift: opts.shift,
      ...(opts.pressure === undefined ? {} : { pressure: opts.pressure }),
    });
    return this;
  }

  move(x: number, y: number, opts: { pressure?: number; alt?: boolean; shift?: boolean } = {}): this {
    this.controller.pointerMove({ screen: { x, y }, button: 0, ...opts });
    return this;
  }

  up(x: number, y: number, opts: { shift?: boolean } = {}): this {
    this.controller.pointerUp({ screen: { x, y }, button: 0, shift: opts.shift });
    return this;
  }

  drag(from: [number, number], to: [number, number], opts: { button?: number; shift?: boolean } = {}): this {
    this.down(from[0], from[1], opts);
    for (let i = 1; i <= 5; i++)
      this.move(from[0] + ((to[0] - from[0]) * i) / 5, from[1] + ((to[1] - from[1]) * i) / 5);
    return this.up(to[0], to[1], opts);
  }

  click(x: number, y: number, opts: { shift?: boolean } = {}): this {
    return this.down(x, y, opts).up(x, y, opts);
  }

  key(key: string, mods: Omit<KeyInput, 'key'> = {}): boolean {
    return handleKeyDown({ key, ...mods }, this.host, this.actions);
  }

  keyUp(key: string): void {
    handleKeyUp({ key }, this.host);
  }
}
