package flame

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// lookupJoin is a flame graph of the demo's lookup join, as Flink's REST
// API sends it: most time waits on the dimension table's database.
func lookupJoin(t testing.TB) Node {
	t.Helper()
	raw, err := os.ReadFile("testdata/lookup_join.flamegraph.json")
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		EndTimestamp int64 `json:"endTimestamp"`
		Data         Node  `json:"data"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatal(err)
	}
	return resp.Data
}

// random builds a tree of n frames, deterministically: each frame splits
// most of its samples over a few callees, skewed so that some paths are
// hot and many frames are thin, down to about thirty levels.
func random(n int) Node {
	r := rand.New(rand.NewPCG(50, 1000))
	pkgs := []string{"java.util.", "org.apache.flink.runtime.", "org.apache.flink.streaming.", "com.example.app.", "io.netty.channel.", "scala.collection."}
	made := 1
	var grow func(nd *Node, depth int)
	grow = func(nd *Node, depth int) {
		if made >= n || depth > 30 || nd.Value < 2 {
			return
		}
		k := 1 + r.IntN(6)
		if depth < 3 {
			k = 2 + r.IntN(40)
		}
		left := nd.Value - nd.Value/10
		for i := 0; i < k && made < n && left > 0; i++ {
			v := left
			if i < k-1 {
				v = left * int64(20+r.IntN(60)) / 100
			}
			left -= v
			nd.Children = append(nd.Children, Node{
				Name:  fmt.Sprintf("%sC%d.m%d:%d", pkgs[r.IntN(len(pkgs))], r.IntN(500), r.IntN(40), r.IntN(900)),
				Value: v,
			})
			made++
		}
		for i := range nd.Children {
			grow(&nd.Children[i], depth+1)
		}
	}
	root := Node{Name: "root", Value: 5_000_000}
	for made < n {
		before := made
		grow(&root, 0)
		if made == before {
			break
		}
	}
	return root
}

func size(n *Node) int {
	s := 1
	for i := range n.Children {
		s += size(&n.Children[i])
	}
	return s
}
