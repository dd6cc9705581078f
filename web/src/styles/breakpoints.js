// The breakpoint scale (docs/product/screens.md#look), the one list: the styles' media queries use
// these widths (web/test/source.test.mjs checks them) and scripts ask with `below`.
export const BREAKPOINTS = { xs: 360, sm: 480, md: 768, lg: 1024, xl: 1280, '2xl': 1440, '3xl': 1560, '4xl': 1920 };

/** The media query of widths below breakpoint `name`: `below('md')` is `(max-width: 767px)`. */
export const below = (name) => `(max-width: ${BREAKPOINTS[name] - 1}px)`;
