package scheduler

import (
	"os"
	"testing"
)

func TestOwnerGone(t *testing.T) {
	host, _ := os.Hostname()
	for owner, want := range map[string]bool{
		leaseOwner(host, os.Getpid(), "ab12"):  false, // this very process
		leaseOwner(host, 1<<22+12345, "ab12"):  true,  // no such pid here
		leaseOwner("elsewhere", 1<<22, "ab12"): false, // another host: cannot tell
		"vm:7054:99a337dc":                     false, // an older palink's id
		"":                                     false,
	} {
		if got := ownerGone(owner); got != want {
			t.Errorf("ownerGone(%q) = %v, want %v", owner, got, want)
		}
	}
}
