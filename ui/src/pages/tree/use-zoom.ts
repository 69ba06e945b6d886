import { select } from 'd3-selection';
import { type ZoomBehavior, zoom, zoomIdentity, zoomTransform } from 'd3-zoom';
import { type RefObject, useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import type { TreeLayout } from './layout.ts';

/** Room left around the tree when it is fitted to the view, in pixels. */
const FIT_MARGIN = 24;
/** Fitting never enlarges a small tree beyond this. */
const FIT_MAX_SCALE = 1.5;
const ZOOM_STEP = 1.5;

export type ZoomControls = {
  zoomIn: () => void;
  zoomOut: () => void;
  /** scales and moves the whole tree into view */
  fit: () => void;
  /** moves the view to a point of the tree when it is out of sight */
  reveal: (x: number, y: number) => void;
};

/**
 * Zoom and pan (wheel, drag, double click, and the controls returned) of `svg`, applied to
 * `group`'s transform directly: a zoom re-renders nothing.
 */
export function useZoom(svg: RefObject<SVGSVGElement | null>, group: RefObject<SVGGElement | null>, bounds: TreeLayout['bounds']): ZoomControls {
  const behaviour = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  // set up before the first paint, so that the view can be fitted before it too
  useLayoutEffect(() => {
    const el = svg.current;
    if (!el) return;
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.005, 8])
      .on('zoom', (e: { transform: { toString(): string } }) => group.current?.setAttribute('transform', e.transform.toString()));
    select(el).call(z);
    behaviour.current = z;
    return () => {
      select(el).on('.zoom', null);
      behaviour.current = null;
    };
  }, [svg, group]);

  const boundsRef = useRef(bounds);
  boundsRef.current = bounds;
  const fit = useCallback(() => {
    const el = svg.current;
    const z = behaviour.current;
    if (!el || !z) return;
    const { x0, y0, x1, y1 } = boundsRef.current;
    if (!Number.isFinite(x0)) return;
    const { width, height } = el.getBoundingClientRect();
    const k = Math.min(FIT_MAX_SCALE, (width - 2 * FIT_MARGIN) / Math.max(1, x1 - x0), (height - 2 * FIT_MARGIN) / Math.max(1, y1 - y0));
    const t = zoomIdentity.translate(width / 2 - (k * (x0 + x1)) / 2, height / 2 - (k * (y0 + y1)) / 2).scale(k);
    select(el).call(z.transform, t);
  }, [svg]);
  const scaleBy = useCallback(
    (factor: number) => {
      if (svg.current && behaviour.current) select(svg.current).call(behaviour.current.scaleBy, factor);
    },
    [svg],
  );
  const reveal = useCallback(
    (x: number, y: number) => {
      const el = svg.current;
      if (!el || !behaviour.current) return;
      const [sx, sy] = zoomTransform(el).apply([x, y]);
      const { width, height } = el.getBoundingClientRect();
      if (sx < FIT_MARGIN || sy < FIT_MARGIN || sx > width - FIT_MARGIN || sy > height - FIT_MARGIN) select(el).call(behaviour.current.translateTo, x, y);
    },
    [svg],
  );
  return useMemo(() => ({ zoomIn: () => scaleBy(ZOOM_STEP), zoomOut: () => scaleBy(1 / ZOOM_STEP), fit, reveal }), [scaleBy, fit, reveal]);
}
