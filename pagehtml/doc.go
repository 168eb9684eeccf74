// Package pagehtml is the HTML of a module's pages: it reads authored
// HTML (or Markdown, converted first) into a small tree that holds only
// an allow-list of harmless elements and attributes, splits it into the
// sections its headings open, rewrites its links and images, and writes
// it back as HTML, or as Markdown for a text handout.
//
// It is a leaf (the standard library and golang.org/x/net/html's
// tokenizer): the importers sanitise pages with it when they install
// them, the core uses it to name a page's sections, and the routes render
// pages with it.
//
// Why a tokenizer and our own tree rather than html.Parse: the HTML5 tree
// builder repairs any input, but some inputs (tens of thousands of nested
// or misnested elements) cost it time quadratic in their size. Here every
// start tag costs at most MaxDepth steps, nesting past MaxDepth is
// flattened, and everything not on the allow-list is dropped (script,
// style, frames, forms, SVG, with their content) or unwrapped (font,
// center, span-like tags the list does not name: their text stays).
package pagehtml
