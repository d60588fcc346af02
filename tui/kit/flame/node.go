package flame

import (
	"slices"
	"strings"

	"github.com/palink/palink/tui/kit"
)

// Node is a frame of a flame graph as Flink's REST API sends it under
// "data": the frame's name ("class.method:line", "root" at the top), the
// samples it was on the stack in, and its callees.
type Node struct {
	Name     string `json:"name"`
	Value    int64  `json:"value"`
	Children []Node `json:"children,omitempty"`
}

// Family is where a frame's code comes from, which picks its colour.
type Family uint8

// Families.
const (
	FamilyUser Family = iota
	FamilyJVM
	FamilyFlink
	FamilyLibrary
	FamilyRoot
	nFamilies
)

// String names the family as the legend shows it.
func (f Family) String() string {
	return [...]string{"user", "jvm", "flink", "lib", "root"}[f]
}

var (
	jvmPrefixes = []string{"java.", "javax.", "jdk.", "sun.", "com.sun."}
	libPrefixes = []string{
		"scala.", "kotlin.", "akka.", "org.apache.pekko.", "io.netty.", "org.apache.kafka.",
		"org.apache.hadoop.", "com.google.", "com.fasterxml.", "org.apache.commons.",
		"org.slf4j.", "org.apache.logging.", "org.apache.calcite.", "org.rocksdb.",
		"org.codehaus.janino.", "com.esotericsoftware.", "org.xerial.", "com.mysql.",
		"org.postgresql.", "com.zaxxer.", "io.debezium.", "org.apache.hudi.", "org.apache.iceberg.",
		"org.apache.paimon.", "org.apache.parquet.", "org.apache.avro.", "org.apache.http.",
	}
)

// leads marks the bytes a known prefix starts with: most frames of user
// code are told apart by their first byte, at 50k frames a sample.
var leads = func() (l [256]bool) {
	for _, p := range append(append([]string{"org.apache.flink."}, jvmPrefixes...), libPrefixes...) {
		l[p[0]] = true
	}
	return l
}()

// FamilyOf tells the family by the package a frame's name starts with;
// anything unknown is the user's.
func FamilyOf(name string) Family {
	switch {
	case name == "" || !leads[name[0]] && name != "root":
		return FamilyUser
	case name == "root":
		return FamilyRoot
	case strings.HasPrefix(name, "org.apache.flink."):
		return FamilyFlink
	}
	for _, p := range jvmPrefixes {
		if strings.HasPrefix(name, p) {
			return FamilyJVM
		}
	}
	for _, p := range libPrefixes {
		if strings.HasPrefix(name, p) {
			return FamilyLibrary
		}
	}
	return FamilyUser
}

// frame is a node flattened; children are t.kids[first:first+n], hottest
// first.
type frame struct {
	name   string
	value  int64 // samples as given
	ext    int64 // width in samples: at least the callees' sum
	sub    int64 // the callees' sum
	parent int32
	first  int32
	n      int32
	depth  int32
	height int32 // levels of callees below it
	tailH  int32 // the most of its height and its later siblings'
	family Family
}

// Tree is a flame graph flattened into arrays: a few words a frame and no
// pointers but the names, so that 50k frames are a few megabytes the
// collector skims. It is never changed once built, so a Cmd can build it
// off the UI's goroutine and a Model share it.
type Tree struct {
	f    []frame
	kids []int32
}

// Build flattens a flame graph, breadth first and without recursion, so
// that a stack thousands deep cannot overflow ours. It takes about 20 ms
// for 50k frames: build in a tea.Cmd, then SetTree.
func Build(root Node) *Tree {
	return build(&root)
}

func build(root *Node) *Tree {
	// Counted first, so that the arrays are allocated once: growing them
	// by appending was most of the cost and twice the memory.
	n := 0
	for stack := []*Node{root}; len(stack) > 0; {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		for c := range nd.Children {
			stack = append(stack, &nd.Children[c])
		}
	}
	t := &Tree{f: make([]frame, 0, n), kids: make([]int32, 0, n-1)}
	type item struct {
		n      *Node
		parent int32
		depth  int32
	}
	queue := make([]item, 0, n)
	queue = append(queue, item{root, -1, 0})
	for i := 0; i < len(queue); i++ {
		it := queue[i]
		t.f = append(t.f, frame{
			name: it.n.Name, value: max(it.n.Value, 0), parent: it.parent, depth: it.depth,
			first: int32(len(t.kids)), n: int32(len(it.n.Children)), family: FamilyOf(it.n.Name),
		})
		for c := range it.n.Children {
			t.kids = append(t.kids, int32(len(queue)))
			queue = append(queue, item{&it.n.Children[c], int32(i), it.depth + 1})
		}
	}
	// Children come after their parent, so one backward pass sums them.
	for i := len(t.f) - 1; i >= 0; i-- {
		f := &t.f[i]
		for _, c := range t.children(int32(i)) {
			f.sub += t.f[c].ext
			f.height = max(f.height, t.f[c].height+1)
		}
		f.ext = max(f.value, f.sub)
	}
	for i := range t.f {
		ks := t.children(int32(i))
		slices.SortStableFunc(ks, func(a, b int32) int {
			if ea, eb := t.f[a].ext, t.f[b].ext; ea != eb {
				if ea > eb {
					return -1
				}
				return 1
			}
			return strings.Compare(t.f[a].name, t.f[b].name)
		})
		h := int32(0)
		for j := len(ks) - 1; j >= 0; j-- {
			h = max(h, t.f[ks[j]].height)
			t.f[ks[j]].tailH = h
		}
	}
	return t
}

func (t *Tree) children(i int32) []int32 {
	f := &t.f[i]
	return t.kids[f.first : f.first+f.n]
}

// path is the names from the root's first callee down to i, which finds
// the same frame in the next sample of the same vertex.
func (t *Tree) path(i int32) []string {
	var p []string
	for ; i > 0; i = t.f[i].parent {
		p = append(p, t.f[i].name)
	}
	slices.Reverse(p)
	return p
}

// find follows a path from the root as far as it goes.
func (t *Tree) find(p []string) int32 {
	at := int32(0)
	for _, name := range p {
		next := int32(-1)
		for _, c := range t.children(at) {
			if t.f[c].name == name {
				next = c
				break
			}
		}
		if next < 0 {
			break
		}
		at = next
	}
	return at
}

// label fits a frame's name into w cells, losing the least first: the
// package, then the line number, then the end.
func label(name string, w int) string {
	if kit.Width(name) <= w {
		return name
	}
	core, line := name, ""
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		core, line = name[:i], name[i:]
	}
	if j := strings.LastIndexByte(core, '.'); j > 0 {
		if k := strings.LastIndexByte(core[:j], '.'); k >= 0 {
			core = core[k+1:]
		}
	}
	if kit.Width(core+line) <= w {
		return core + line
	}
	return kit.Truncate(core, w)
}
