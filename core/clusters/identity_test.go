package clusters

import (
	"strings"
	"testing"

	"github.com/palink/palink/yarn"
)

// TestClaimOf: an application is a command's own when it carries this
// store's, this job's and this command's tags. One that a palink from
// before store ids submitted (job and command tags of a legacy command, no
// store tag) is this store's only when this store recorded its id on the
// command or the job: every copy of that older store has the same job and
// command, so the tags alone may name another copy's submission.
func TestClaimOf(t *testing.T) {
	const store, job = "a1b2c3d4e5f6", "j0123456789ab"
	const cmd = "c000000001-00aa11bb22cc"
	const legacy = "c000000001"
	const id, other = "application_1_0002", "application_1_0001"
	app := func(ts ...string) yarn.Application {
		return yarn.Application{ID: id, ApplicationTags: strings.Join(ts, ",")}
	}
	legacyTags := app(TagPalink, JobTag(job), CmdTag(legacy))
	for _, tc := range []struct {
		name     string
		app      yarn.Application
		cmd      string
		recorded []string
		want     Claim
	}{
		{"every tag", app(TagPalink, StoreTag(store), JobTag(job), CmdTag(cmd)), cmd, nil, ByStoreTag},
		{"every tag, another id recorded", app(TagPalink, StoreTag(store), JobTag(job), CmdTag(cmd)), cmd, []string{other}, ByStoreTag},
		{"YARN lower-cases tags", app(strings.ToLower(CmdTag(cmd)), StoreTag(store), JobTag(job)), cmd, nil, ByStoreTag},
		{"legacy command resubmitted by today's palink", app(TagPalink, StoreTag(store), JobTag(job), CmdTag(legacy)), legacy, nil, ByStoreTag},
		{"another store", app(TagPalink, StoreTag("ffffffffffff"), JobTag(job), CmdTag(cmd)), cmd, nil, NotSubmitted},
		{"another store, its id recorded", app(TagPalink, StoreTag("ffffffffffff"), JobTag(job), CmdTag(cmd)), cmd, []string{id}, NotSubmitted},
		{"no store tag for a new command", app(TagPalink, JobTag(job), CmdTag(cmd)), cmd, nil, NotSubmitted},
		{"no store tag for a new command, its id recorded", app(TagPalink, JobTag(job), CmdTag(cmd)), cmd, []string{id}, NotSubmitted},
		{"another job", app(TagPalink, StoreTag(store), JobTag("j999999999999"), CmdTag(cmd)), cmd, nil, NotSubmitted},
		{"another command", app(TagPalink, StoreTag(store), JobTag(job), CmdTag("c000000001-ffffffffffff")), cmd, nil, NotSubmitted},
		{"command tag alone", app(CmdTag(cmd)), cmd, []string{id}, NotSubmitted},
		{"legacy, nothing recorded", legacyTags, legacy, nil, UnrecordedLegacy},
		{"legacy, empty ids recorded", legacyTags, legacy, []string{"", ""}, UnrecordedLegacy},
		{"legacy, another application recorded", legacyTags, legacy, []string{other}, UnrecordedLegacy},
		{"legacy, its id recorded on the command", legacyTags, legacy, []string{id, ""}, ByRecordedID},
		{"legacy, its id recorded on the job", legacyTags, legacy, []string{"", id}, ByRecordedID},
		{"legacy, of another job, its id recorded", app(TagPalink, JobTag("j999999999999"), CmdTag(legacy)), legacy, []string{id}, NotSubmitted},
		{"legacy, of another command, its id recorded", app(TagPalink, JobTag(job), CmdTag("c000000002")), legacy, []string{id}, NotSubmitted},
		{"legacy command tag on another store's application", app(TagPalink, StoreTag("ffffffffffff"), JobTag(job), CmdTag(legacy)), legacy, []string{id}, NotSubmitted},
	} {
		got := ClaimOf(tc.app, store, job, tc.cmd, tc.recorded...)
		if got != tc.want {
			t.Errorf("%s: ClaimOf = %s, want %s", tc.name, got.Matched(store), tc.want.Matched(store))
		}
		if got.Ours() != (tc.want == ByStoreTag || tc.want == ByRecordedID) {
			t.Errorf("%s: Ours = %v", tc.name, got.Ours())
		}
	}
}

// TestClaimMatched: the log names what matched, and never a store tag
// that did not.
func TestClaimMatched(t *testing.T) {
	const store = "a1b2c3d4e5f6"
	for c, want := range map[Claim][]string{
		ByStoreTag:       {"this store's (palink-store-a1b2c3d4e5f6), this job's and this command's tags"},
		ByRecordedID:     {"application id this store recorded", "no store tag (submitted by a palink before store ids)"},
		UnrecordedLegacy: {"no store tag (submitted by a palink before store ids)", "did not record its id", "another copy's"},
		NotSubmitted:     {"does not carry"},
	} {
		got := c.Matched(store)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("claim %d: %q lacks %q", c, got, w)
			}
		}
		if c != ByStoreTag && strings.Contains(got, "carries this store's") {
			t.Errorf("claim %d claims the store tag: %q", c, got)
		}
	}
}
