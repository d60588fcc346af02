package detail

import "github.com/palink/palink/core/api"

// What the tests of package detail_test look at.

// Tab is the active tab's title, Tabs how many there are.
func (d *Screen) Tab() string { return d.tabs[d.tab].Title() }
func (d *Screen) Tabs() int   { return len(d.tabs) }

// SelectTab shows the tab titled title.
func (d *Screen) SelectTab(title string) { d.selectTab(title) }

// Job is the job as the detail knows it.
func (d *Screen) Job() api.JobView { return d.data.job }

// LoadSeq is the identity of the detail's last load.
func (d *Screen) LoadSeq() int { return d.loads.Seq() }
