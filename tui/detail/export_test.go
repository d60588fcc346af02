package detail

import "github.com/palink/palink/core/api"

// What the tests of package detail_test look at.

// Tabs is how many tabs there are.
func (d *Screen) Tabs() int { return len(d.tabs) }

// Job is the job as the detail knows it.
func (d *Screen) Job() api.JobView { return d.data.job }

// LoadSeq is the identity of the detail's last load.
func (d *Screen) LoadSeq() int { return d.loads.Seq() }

// GraphTick is like the Graph tab's refresh timer's message, for
// Harness.Fire.
var GraphTick = graphTickMsg{}
