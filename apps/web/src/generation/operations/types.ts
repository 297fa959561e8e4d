// A web operation module: which domain operations it sends, and its button among the image operations of the
// layer tab (the tab renders the buttons of every registered module, in order).
import type { OperationKind } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import type { OperationContext } from './context.ts';

/** A button of the layer tab's image operations; it is disabled while a job runs for the layer. */
export interface LayerOperationButton {
  readonly testId: string;
  /** i18n key of the label. */
  readonly label: string;
  /** Where it sits in the row (lower first). */
  readonly order: number;
  /** Shown for this layer (default: always). */
  shown?(node: LayerNode<'IMAGE'>): boolean;
  /** Ready to run, a running job aside (default: always). */
  ready?(ctx: OperationContext, node: LayerNode<'IMAGE'>): boolean;
  /** i18n key of the hint shown while not ready. */
  readonly hint?: string;
  /** The price shown on the button, or null to show none. */
  credits?(ctx: OperationContext, node: LayerNode<'IMAGE'>): number | null;
  /** Starts the operation, or opens its form (the name of the form it toggles). */
  readonly action: { start(ctx: OperationContext, node: LayerNode<'IMAGE'>): void } | { form: string };
}

/** One operation as the web offers it. */
export interface WebOperation {
  /** A name for the module (`variations` sends img2img). */
  readonly id: string;
  /** The domain operations whose requests it builds and sends. */
  readonly kinds: readonly OperationKind[];
  readonly button?: LayerOperationButton;
}
