// Node labels that never cover one another. Sigma offers each frame's labels (its grid's
// pick plus every forced one); they are drawn after the frame, most important first, each
// only where it overlaps no label already drawn.
import type { Attributes } from "graphology-types";
import type { Settings } from "sigma/settings";
import type { NodeDisplayData, PartialButFor } from "sigma/types";
import { drawDiscNodeLabel } from "sigma/rendering";

export type LabelData = PartialButFor<NodeDisplayData, "x" | "y" | "size" | "label" | "color"> & { key: string };

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

// Room around each label, so neighbouring ones read as separate.
const MARGIN = 2;

/**
 * Where a label is drawn, in viewport pixels: right of its node as sigma draws it, or left of
 * it (`side` -1) where the right runs off the stage.
 */
export function labelBox(x: number, y: number, size: number, textWidth: number, labelSize: number, side = 1): Box {
  const near = x + side * (size + 3);
  const far = near + side * textWidth;
  return {
    left: Math.min(near, far) - MARGIN,
    top: y - labelSize / 2 - MARGIN,
    right: Math.max(near, far) + MARGIN,
    bottom: y + labelSize / 2 + MARGIN,
  };
}

export function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

export class LabelPlacer {
  private offered: LabelData[] = [];
  private context: CanvasRenderingContext2D | null = null;
  private placed = new Map<string, Box>();

  /**
   * @param rank lower first: the caller's order of importance for a node's label
   */
  constructor(private readonly rank: (node: string) => number) {}

  /** Sigma's `defaultDrawNodeLabel`: keep the label for the end of the frame. */
  offer(context: CanvasRenderingContext2D, data: LabelData): void {
    this.context = context;
    if (data.label) this.offered.push(data);
  }

  /** The frame is drawn: place and draw the labels offered during it. */
  draw<N extends Attributes, E extends Attributes, G extends Attributes>(settings: Settings<N, E, G>): void {
    const context = this.context;
    const offered = this.offered;
    this.offered = [];
    this.placed = new Map();
    if (!context) return;
    context.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
    const width = context.canvas.clientWidth;
    offered.sort((a, b) => this.rank(a.key) - this.rank(b.key) || b.size - a.size || (a.key < b.key ? -1 : 1));
    const boxes: Box[] = [];
    for (const data of offered) {
      const text = context.measureText(data.label ?? "").width;
      const right = labelBox(data.x, data.y, data.size, text, settings.labelSize);
      const box = right.right <= width ? right : labelBox(data.x, data.y, data.size, text, settings.labelSize, -1);
      if (box.left < 0 || boxes.some((other) => overlaps(box, other))) continue;
      boxes.push(box);
      this.placed.set(data.key, box);
      if (box === right) {
        drawDiscNodeLabel(context, data, settings);
      } else {
        context.fillStyle = settings.labelColor.color ?? "#000";
        context.fillText(data.label ?? "", box.left + MARGIN, data.y + settings.labelSize / 3);
      }
    }
  }

  /** The nodes whose labels the last frame drew, and where. */
  drawn(): ReadonlyMap<string, Box> {
    return this.placed;
  }
}
