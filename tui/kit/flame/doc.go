// Package flame draws a flame graph in the terminal as an icicle chart: the
// root across the top, callees below, each frame as wide as its share of
// the samples. It is what Flink's /jobs/:jobid/vertices/:vertexid/flamegraph
// returns, mirrored by Node so that the caller's conversion is one loop.
//
// The tree is flattened once into arrays, children sorted hottest first so
// that the hottest path runs down the left edge and the frames too narrow
// to draw gather on the right of their siblings, where they are drawn as
// one "…" cell and shades below it. A frame costs nothing until it is at
// least a cell wide, so a frame of the chart is bounded by the screen, not
// by the tree: 50k frames draw as fast as 50.
//
// Model moves a cursor over the frames (←/→ along the row, ↑ to the caller,
// ↓ to the hottest callee), zooms into a frame on enter and out on
// esc/backspace, and highlights the frames matching a search. Frames are
// coloured by package family: the JVM, Flink, known libraries, the user's
// code.
//
// flame knows nothing of Flink's client or palink's model: it imports
// tui/kit for the theme only, and never core, yarn, store or cli.
package flame
