package clusters

import (
	"strings"
	"testing"

	"github.com/palink/palink/yarn"
)

// TestSubmittedBy: an application is a command's own only when it carries
// this store's, this job's and this command's tags; a command from before
// store ids matches on job and command alone, unless another store claims
// the application.
func TestSubmittedBy(t *testing.T) {
	const store, job = "a1b2c3d4e5f6", "j0123456789ab"
	const cmd = "c000000001-00aa11bb22cc"
	const legacy = "c000000001"
	tags := func(ts ...string) yarn.Application { return yarn.Application{ApplicationTags: strings.Join(ts, ",")} }
	for _, tc := range []struct {
		name string
		app  yarn.Application
		cmd  string
		want bool
	}{
		{"every tag", tags(TagPalink, StoreTag(store), JobTag(job), CmdTag(cmd)), cmd, true},
		{"another store", tags(TagPalink, StoreTag("ffffffffffff"), JobTag(job), CmdTag(cmd)), cmd, false},
		{"no store tag for a new command", tags(TagPalink, JobTag(job), CmdTag(cmd)), cmd, false},
		{"another job", tags(TagPalink, StoreTag(store), JobTag("j999999999999"), CmdTag(cmd)), cmd, false},
		{"another command", tags(TagPalink, StoreTag(store), JobTag(job), CmdTag("c000000001-ffffffffffff")), cmd, false},
		{"command tag alone", tags(CmdTag(cmd)), cmd, false},
		{"legacy command, job and command tags", tags(TagPalink, JobTag(job), CmdTag(legacy)), legacy, true},
		{"legacy command of another job", tags(TagPalink, JobTag("j999999999999"), CmdTag(legacy)), legacy, false},
		{"legacy command tag on another store's application", tags(TagPalink, StoreTag("ffffffffffff"), JobTag(job), CmdTag(legacy)), legacy, false},
		{"YARN lower-cases tags", tags(strings.ToLower(CmdTag(cmd)), StoreTag(store), JobTag(job)), cmd, true},
	} {
		if got := SubmittedBy(tc.app, store, job, tc.cmd); got != tc.want {
			t.Errorf("%s: submittedBy = %v, want %v", tc.name, got, tc.want)
		}
	}
}
