/** Styles for text that only screen readers get (a live status, a column's hidden label). In sx a
 * width of 1 means 100%: the sizes are in pixels. */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
