// The window's saved size, position and mode (window-state.json in the data folder), read back
// defensively: the file may be hand-edited, truncated, from another screen layout or another
// version. parseWindowState keeps only well-typed fields (a string width is dropped, never
// handed to the BrowserWindow constructor); clampWindowState fits the result into the work
// area of the display it belongs to (screen.getDisplayMatching), so a window saved on a
// detached monitor or at a larger resolution comes back whole and on screen. Sizes and
// positions are integers; x and y come as a pair or not at all (then the OS centres the window).

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SavedWindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
  fullscreen: boolean;
}

export interface WindowPlacement extends SavedWindowState {
  /** The window's minimum size: the app's minimum, or the whole work area on a smaller one. */
  minWidth: number;
  minHeight: number;
}

export const DEFAULT_WINDOW_SIZE = { width: 1440, height: 900 } as const;
/**
 * The smallest window: 720 px wide takes half of a 1536 px wide screen (1920 x 1080 at 125%, a
 * common laptop's), so the app snaps beside another window; below 1024 CSS px the screen takes
 * its two-column layout (styles.css), whole down to 672.
 */
export const MIN_WINDOW_SIZE = { width: 720, height: 640 } as const;

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** The saved state when `raw` (parsed JSON) has a usable size, else null. */
export function parseWindowState(raw: unknown): SavedWindowState | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (!finite(r.width) || !finite(r.height) || r.width <= 0 || r.height <= 0) return null;
  const s: SavedWindowState = {
    width: Math.round(r.width),
    height: Math.round(r.height),
    maximized: r.maximized === true,
    fullscreen: r.fullscreen === true,
  };
  if (finite(r.x) && finite(r.y)) {
    s.x = Math.round(r.x);
    s.y = Math.round(r.y);
  }
  return s;
}

/** The rectangle to look the display up by (getDisplayMatching), or null when unplaced. */
export function matchingBounds(s: SavedWindowState | null): Rect | null {
  if (!s || s.x === undefined || s.y === undefined) return null;
  return { x: s.x, y: s.y, width: s.width, height: s.height };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), hi);
}

/** Where and how big the window opens, given the saved state (or none) and the display's work area. */
export function clampWindowState(saved: SavedWindowState | null, workArea: Rect): WindowPlacement {
  const wa = {
    x: Math.round(workArea.x),
    y: Math.round(workArea.y),
    width: Math.max(1, Math.floor(workArea.width)),
    height: Math.max(1, Math.floor(workArea.height)),
  };
  const minWidth = Math.min(MIN_WINDOW_SIZE.width, wa.width);
  const minHeight = Math.min(MIN_WINDOW_SIZE.height, wa.height);
  const width = clamp(saved?.width ?? DEFAULT_WINDOW_SIZE.width, minWidth, wa.width);
  const height = clamp(saved?.height ?? DEFAULT_WINDOW_SIZE.height, minHeight, wa.height);
  const out: WindowPlacement = {
    width,
    height,
    minWidth,
    minHeight,
    maximized: saved?.maximized ?? false,
    fullscreen: saved?.fullscreen ?? false,
  };
  if (saved?.x !== undefined && saved.y !== undefined) {
    out.x = clamp(saved.x, wa.x, wa.x + wa.width - width);
    out.y = clamp(saved.y, wa.y, wa.y + wa.height - height);
  }
  return out;
}
