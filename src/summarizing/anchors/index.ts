/** Anchored facts: the public pieces. */
export { ANCHOR_CATEGORIES, type Anchor, type AnchorCategory, anchorSchema } from './anchor.js';
export { type AnchorCheck, checkAnchors } from './check-anchors.js';
export { type ExtractAnchorsOptions, extractAnchors } from './extract-anchors.js';
export { type PinAnchorsOptions, type PinAnchorsResult, pinAnchors } from './pin-anchors.js';
export { PINNED_HEADING } from './pinned-section.js';
