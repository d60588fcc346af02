package dag

// Graph is what the caller draws: vertices in a stable order (it breaks
// ties in the layout, so the same graph always looks the same) and edges
// between their IDs. Edges naming an unknown vertex are left out and
// counted (Drawing.Dropped); a vertex ID given twice keeps its first box.
type Graph struct {
	Vertices []Vertex
	Edges    []Edge
}

// Vertex is one box: Title is shortened to fit (argument lists first, then
// the middle of an operator chain, then the end); Lines are figures such as
// "in 1.2k/s out 1.1k/s", cut at the box's width, so keep them short.
type Vertex struct {
	ID    string
	Title string
	Lines []Line
}

// Line is one line of figures and how it reads.
type Line struct {
	Text string
	Tone Tone
}

// Tone is what a line means; Styles turns it into a colour, so that the
// caller never picks one.
type Tone uint8

// Tones.
const (
	ToneNormal Tone = iota
	ToneDim
	ToneGood
	ToneWarn
	ToneBad
)

// Edge goes From one vertex To another; Label is its ship strategy (HASH,
// FORWARD…), shortened when space is short, drawn as given when unknown.
type Edge struct {
	From, To string
	Label    string
}

// Mode is how the graph is laid out.
type Mode uint8

// Modes. Auto picks the first of LeftRight, TopDown and List that fits the
// width.
const (
	Auto Mode = iota
	LeftRight
	TopDown
	List
)

// String names the mode as the status line shows it.
func (m Mode) String() string {
	switch m {
	case LeftRight:
		return "left→right"
	case TopDown:
		return "top↓down"
	case List:
		return "list"
	}
	return "auto"
}

// Rect is a rectangle of cells.
type Rect struct{ X, Y, W, H int }

func (r Rect) contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}
