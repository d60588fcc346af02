package core

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
		{"every tag", tags(tagPalink, storeTag(store), jobTag(job), cmdTag(cmd)), cmd, true},
		{"another store", tags(tagPalink, storeTag("ffffffffffff"), jobTag(job), cmdTag(cmd)), cmd, false},
		{"no store tag for a new command", tags(tagPalink, jobTag(job), cmdTag(cmd)), cmd, false},
		{"another job", tags(tagPalink, storeTag(store), jobTag("j999999999999"), cmdTag(cmd)), cmd, false},
		{"another command", tags(tagPalink, storeTag(store), jobTag(job), cmdTag("c000000001-ffffffffffff")), cmd, false},
		{"command tag alone", tags(cmdTag(cmd)), cmd, false},
		{"legacy command, job and command tags", tags(tagPalink, jobTag(job), cmdTag(legacy)), legacy, true},
		{"legacy command of another job", tags(tagPalink, jobTag("j999999999999"), cmdTag(legacy)), legacy, false},
		{"legacy command tag on another store's application", tags(tagPalink, storeTag("ffffffffffff"), jobTag(job), cmdTag(legacy)), legacy, false},
		{"YARN lower-cases tags", tags(strings.ToLower(cmdTag(cmd)), storeTag(store), jobTag(job)), cmd, true},
	} {
		if got := submittedBy(tc.app, store, job, tc.cmd); got != tc.want {
			t.Errorf("%s: submittedBy = %v, want %v", tc.name, got, tc.want)
		}
	}
}
