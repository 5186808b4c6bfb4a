/**
 * The devices module's public surface: what other modules use of it
 * (docs/adr/0003-server-layout-and-boundaries.md).
 */
export {
  ensureKeyEvents,
  formerKeys,
  KEY_EVENT_FROM,
  KEY_EVENT_SELECT,
  keyEventView,
} from './key-history.ts';
