// Package dag lays out and draws a directed graph of boxes in the terminal:
// Flink's job graph, one box per vertex with the figures the caller gives,
// edges with arrowheads and their ship strategy.
//
// Layout is pure and sized by the width alone, so it can be benchmarked and
// tested apart from the screen: cycles are broken by reversing back edges
// (drawn dashed, their arrow at the far end), vertices are layered by longest
// path, long edges pass through one-cell placeholders in the layers they
// cross, barycenter sweeps order each layer to cut crossings, and a
// pool-adjacent-violators pass straightens edges without letting boxes
// overlap. It draws left to right when that fits the width, top to bottom
// when not, and as a list of boxes as the last resort; the height scrolls.
//
// Model is the bubbletea side: a cursor that follows edges and layers, a
// highlighted vertex (the bottleneck), a viewport that keeps the cursor in
// sight, and OpenMsg on enter.
//
// dag knows nothing of Flink or of palink's model: the caller converts its
// data into a Graph. It imports tui/kit for the theme only, and never core,
// yarn, store or cli.
package dag
